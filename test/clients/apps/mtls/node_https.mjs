import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';

const env = process.env;
// The PSP's client certificate as a .p12 and its passphrase, from the app's configuration.
const agent = new Agent({ pfx: readFileSync(env.APP_CLIENT_P12), passphrase: env.APP_CLIENT_P12_PASSWORD });
function call(method, url, body, headers) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => (text += d));
      res.on('end', () => resolve([res.statusCode, JSON.parse(text)]));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const basic = Buffer.from(`${env.APP_CLIENT_ID}:${env.APP_CLIENT_SECRET}`).toString('base64');
const [, auth] = await call('POST', `${env.APP_PIX_URL}/oauth/token`, 'grant_type=client_credentials', { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' });
const cob = { calendario: { expiracao: 3600 }, valor: { original: '123.45' }, chave: '8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d' };
const [status, body] = await call('PUT', `${env.APP_PIX_URL}/v2/cob/${env.APP_TXID}`, JSON.stringify(cob), { authorization: `Bearer ${auth.access_token}`, 'content-type': 'application/json' });
console.log('cob', status, body.status);
