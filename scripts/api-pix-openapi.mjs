// Makes src/faces/api-pix/openapi-api-pix.json, what GET /openapi-api-pix.json serves: the Central Bank's API Pix document
// (docs/standards/bacen-pix-api-2.9.0.openapi.yaml) narrowed to the operations this sandbox emulates, with the
// sandbox's own servers and token URL. Run it after changing the emulated set; test/api-pix/document.test.ts checks
// the committed file is what this makes.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const SOURCE = new URL('../docs/standards/bacen-pix-api-2.9.0.openapi.yaml', import.meta.url);
const TARGET = new URL('../src/faces/api-pix/openapi-api-pix.json', import.meta.url);
/** Paths of the document not emulated: lotecobv. */
const NOT_EMULATED = /^\/lotecobv(\/|$)/;
const EMULATED_SCOPES = ['cob.write', 'cob.read', 'cobv.write', 'cobv.read', 'pix.write', 'pix.read', 'webhook.write', 'webhook.read', 'payloadlocation.write', 'payloadlocation.read'];
// Pix Automático (sandbox.md 15).
EMULATED_SCOPES.push('rec.write', 'rec.read', 'solicrec.write', 'solicrec.read', 'cobr.write', 'cobr.read', 'payloadlocationrec.write', 'payloadlocationrec.read', 'webhookrec.write', 'webhookrec.read', 'webhookcobr.write', 'webhookcobr.read');

export function makeDocument(yamlText) {
  const doc = parse(yamlText);
  const paths = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    if (NOT_EMULATED.test(path)) continue;
    const location = path === '/{pixUrlAccessToken}' || path === '/cobv/{pixUrlAccessToken}' || path === '/rec/{recUrlAccessToken}';
    paths[path] = location ? { ...item, get: { ...item.get, servers: [{ url: '/api-pix/qr/v2', description: 'The payload locations of pix-sandbox' }] } } : item;
  }
  const flow = doc.components.securitySchemes.OAuth2.flows.clientCredentials;
  flow.tokenUrl = '/api-pix/oauth/token';
  flow.scopes = Object.fromEntries(EMULATED_SCOPES.map((s) => [s, flow.scopes[s]]));
  doc.components.securitySchemes.OAuth2.flows.clientCredentials = flow;
  return {
    ...doc,
    info: {
      ...doc.info,
      'x-pix-sandbox':
        'Served by pix-sandbox: the operations it emulates of this document (bacen/pix-api, release 2.9.0, unmodified otherwise). lotecobv is not emulated. Token: POST /api-pix/oauth/token (HTTP Basic client_id:client_secret, grant_type=client_credentials). See the README section "The standard API Pix face".',
    },
    servers: [{ url: '/api-pix/v2', description: 'pix-sandbox' }],
    paths,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(TARGET, `${JSON.stringify(makeDocument(readFileSync(SOURCE, 'utf8')))}\n`);
  console.log(`wrote ${fileURLToPath(TARGET)}`);
}
