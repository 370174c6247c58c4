import { readFileSync } from 'node:fs';
import { Agent } from 'undici';

const env = process.env;
// The PSP's client certificate as a .p12 and its passphrase, from the app's configuration, in fetch's dispatcher.
const dispatcher = new Agent({ connect: { pfx: readFileSync(env.APP_CLIENT_P12), passphrase: env.APP_CLIENT_P12_PASSWORD } });
const basic = Buffer.from(`${env.APP_CLIENT_ID}:${env.APP_CLIENT_SECRET}`).toString('base64');
const auth = await (await fetch(`${env.APP_PIX_URL}/oauth/token`, { dispatcher, method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })).json();
const cob = { calendario: { expiracao: 3600 }, valor: { original: '123.45' }, chave: '8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d' };
const res = await fetch(`${env.APP_PIX_URL}/v2/cob/${env.APP_TXID}`, { dispatcher, method: 'PUT', headers: { authorization: `Bearer ${auth.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify(cob) });
console.log('cob', res.status, (await res.json()).status);
