import fs from 'node:fs/promises';
import { generateTypes } from './openapi-to-ts.ts';
import { DOCUMENT_PATH, TYPES_PATH, serverDocument } from './server-document.ts';

// npm run client:generate: refreshes client/openapi.json and client/src/generated.ts from the
// server's routes. A test fails whenever the two are out of date.
const document = await serverDocument();
await fs.writeFile(DOCUMENT_PATH, `${JSON.stringify(document, null, 2)}\n`);
await fs.writeFile(TYPES_PATH, generateTypes(document));
console.log(`wrote ${DOCUMENT_PATH.pathname} and ${TYPES_PATH.pathname}`);
