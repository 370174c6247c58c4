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
    paths: { ...doc.paths, ...EXTENSIONS },
  };
}

/** What PSPs offer beside the standard and the sandbox serves too, each marked x-sandbox-extension. */
const EXTENSIONS = {
  '/loc/{id}/qrcode': {
    get: {
      tags: ['PayloadLocation'],
      summary: 'Gerar QR Code de uma location (extensão, fora do padrão)',
      description:
        "Not part of BACEN's API Pix: what PSPs' own APIs offer (Efí's pixGenerateQRCode, among others) and integrators call after PUT /cob. qrcode is the BR Code's copy-paste text, imagemQrcode that code as a PNG data URL, linkVisualizacao the sandbox's checkout page of the charge. A location that serves no charge is 400 PayloadLocationConsultaInvalida.",
      'x-sandbox-extension': true,
      security: [{ OAuth2: ['payloadlocation.read'] }],
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      responses: {
        200: {
          description: 'The QR Code of the charge the location serves.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['qrcode', 'imagemQrcode', 'linkVisualizacao'],
                properties: {
                  qrcode: { type: 'string', description: 'The BR Code (copy-paste text).' },
                  imagemQrcode: { type: 'string', pattern: '^data:image/png;base64,', description: 'The BR Code as a PNG, a data URL.' },
                  linkVisualizacao: { type: 'string', format: 'uri', description: "The sandbox's checkout page of the charge." },
                },
              },
            },
          },
        },
        400: { $ref: '#/components/responses/RequisicaoInvalida' },
        403: { $ref: '#/components/responses/AcessoNegado' },
        404: { $ref: '#/components/responses/NaoEncontrado' },
      },
    },
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(TARGET, `${JSON.stringify(makeDocument(readFileSync(SOURCE, 'utf8')))}\n`);
  console.log(`wrote ${fileURLToPath(TARGET)}`);
}
