// Makes src/faces/api-pix/openapi-api-pix.json, what GET /openapi-api-pix.json serves: the Central Bank's API Pix document
// (docs/standards/bacen-pix-api-2.9.0.openapi.yaml) narrowed to the operations this sandbox emulates, with the
// sandbox's own servers and token URL, and the document's slips corrected (scripts/api-pix-errata.mjs, the one list of
// them). Run it after changing the emulated set or the errata; test/api-pix/document.test.ts checks the committed file
// is what this makes. src/faces/api-pix/document.ts makes the server and token URL absolute as it serves it.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { applyErrata } from './api-pix-errata.mjs';

const SOURCE = new URL('../docs/standards/bacen-pix-api-2.9.0.openapi.yaml', import.meta.url);
const TARGET = new URL('../src/faces/api-pix/openapi-api-pix.json', import.meta.url);
/** Paths of the document not emulated: Pix Automático (rec, solicrec, cobr, locrec, webhookrec, webhookcobr). */
const NOT_EMULATED = /^\/(locrec|rec|solicrec|cobr|webhookrec|webhookcobr)(\/|$)/;
const EMULATED_SCOPES = ['cob.write', 'cob.read', 'cobv.write', 'cobv.read', 'lotecobv.write', 'lotecobv.read', 'pix.write', 'pix.read', 'webhook.write', 'webhook.read', 'payloadlocation.write', 'payloadlocation.read'];

export function makeDocument(yamlText) {
  const doc = parse(yamlText);
  const paths = {};
  for (const [path, item] of Object.entries(doc.paths)) if (!NOT_EMULATED.test(path)) paths[path] = item;
  doc.paths = paths;
  applyErrata(doc);
  const flow = doc.components.securitySchemes.OAuth2.flows.clientCredentials;
  flow.tokenUrl = '/api-pix/oauth/token';
  flow.scopes = Object.fromEntries(EMULATED_SCOPES.map((s) => [s, flow.scopes[s]]));
  doc.components.securitySchemes.OAuth2.flows.clientCredentials = flow;
  return {
    ...doc,
    info: {
      ...doc.info,
      'x-pix-sandbox':
        'Served by pix-sandbox: the operations it emulates of this document (bacen/pix-api, release 2.9.0), with its errata corrected (docs/api-pix.md, "Errata"; nothing else changed). Pix Automático is not emulated. Token: POST /api-pix/oauth/token (HTTP Basic client_id:client_secret, grant_type=client_credentials). The payload locations answer at /qr/{pixUrlAccessToken} and /qr/cobv/{pixUrlAccessToken} under this server, as the locations the charges carry ({public host}/api-pix/qr/v2/...) do.',
    },
    servers: [{ url: '/api-pix/v2', description: 'pix-sandbox' }],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(TARGET, `${JSON.stringify(makeDocument(readFileSync(SOURCE, 'utf8')))}\n`);
  console.log(`wrote ${fileURLToPath(TARGET)}`);
}
