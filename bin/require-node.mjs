// Tessera needs Node 22.18 or newer (24 LTS is what it is tested on): better-sqlite3 13 and
// others require 22.12, and 22.18 (23.6) is the first that runs TypeScript without a flag. npm
// scripts and `npx tessera` run on the Node 24 that `npm install` puts in node_modules/.bin, so
// this only stops a start by hand with an older system Node, and says how.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18) || (major === 23 && minor < 6)) {
  console.error(
    `Tessera needs Node.js 22.18 or newer (24 LTS recommended); this is ${process.version}.\n` +
      'Run it through npm (`npm start`, `npx tessera …`), which uses the Node 24 installed in node_modules/.bin,\n' +
      'or put that first on PATH: export PATH="$PWD/node_modules/.bin:$PATH".',
  );
  process.exit(1);
}
