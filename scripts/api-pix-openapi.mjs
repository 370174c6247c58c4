// Makes src/faces/api-pix/openapi-api-pix.json, what GET /openapi-api-pix.json serves: the Central Bank's API Pix document
// (docs/standards/bacen-pix-api-2.9.0.openapi.yaml), every operation of it, with the sandbox's own servers and token
// URL, and the document's slips corrected (scripts/api-pix-errata.mjs, the one list of them). Run it after changing
// the errata; test/api-pix/document.test.ts checks the committed file
// is what this makes. src/faces/api-pix/document.ts makes the server and token URL absolute as it serves it.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { applyErrata } from './api-pix-errata.mjs';

const SOURCE = new URL('../docs/standards/bacen-pix-api-2.9.0.openapi.yaml', import.meta.url);
const TARGET = new URL('../src/faces/api-pix/openapi-api-pix.json', import.meta.url);

/** The document as served: every one of its 51 operations and 24 scopes, with the sandbox's token URL and its errata corrected. */
export function makeDocument(yamlText) {
  const doc = parse(yamlText);
  applyErrata(doc);
  doc.components.securitySchemes.OAuth2.flows.clientCredentials.tokenUrl = '/api-pix/oauth/token';
  return {
    ...doc,
    info: {
      ...doc.info,
      'x-pix-sandbox':
        'Served by pix-sandbox: every operation of this document (bacen/pix-api, release 2.9.0), with its errata corrected (docs/api-pix.md, "Errata"; nothing else changed). Token: POST /api-pix/oauth/token (HTTP Basic client_id:client_secret, grant_type=client_credentials). The payload locations answer at /qr/{pixUrlAccessToken}, /qr/cobv/{pixUrlAccessToken} and /qr/rec/{recUrlAccessToken} under this server, as the locations the charges and recurrences carry ({public host}/api-pix/qr/v2/...) do.',
    },
    servers: [{ url: '/api-pix/v2', description: 'pix-sandbox' }],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(TARGET, `${JSON.stringify(makeDocument(readFileSync(SOURCE, 'utf8')))}\n`);
  console.log(`wrote ${fileURLToPath(TARGET)}`);
}
