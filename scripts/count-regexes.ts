/**
 * Counts the regular expressions in a source folder (default src/edits/planner): every regex
 * literal and every `RegExp(...)` / `new RegExp(...)` call, found by the TypeScript parser so
 * that slashes in strings and comments are not miscounted. Also counts the `|` alternatives in
 * the literals, as a rough measure of vocabulary kept in patterns.
 *
 *   npm exec -- node scripts/count-regexes.ts [folder]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const folder = process.argv[2] ?? 'src/edits/planner';
let literals = 0;
let calls = 0;
let alternatives = 0;
const perFile: Array<[string, number]> = [];

for (const name of readdirSync(folder).filter((file) => file.endsWith('.ts')).sort()) {
  const path = join(folder, name);
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  let inFile = 0;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      literals++;
      inFile++;
      alternatives += node.getText(source).split('|').length;
    } else if (
      (ts.isCallExpression(node) || ts.isNewExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      calls++;
      inFile++;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  perFile.push([name, inFile]);
}

for (const [name, count] of perFile) process.stdout.write(`${String(count).padStart(5)}  ${name}\n`);
process.stdout.write(`regular expressions in ${folder}: ${literals + calls} (${literals} literals, ${calls} RegExp calls; ${alternatives} alternatives in literals)\n`);
