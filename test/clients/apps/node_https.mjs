import { request } from 'node:https';

const env = process.env;
/** One call with node:https: the status and the parsed body. */
function call(method, url, body, headers) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => (text += d));
      res.on('end', () => resolve([res.statusCode, JSON.parse(text)]));
    });
    req.on('error', reject);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}
const charge = { amount: 49.9, description: 'Pedido 1' };
let [status, body] = await call('POST', 'https://api.pague.dev/v1/pix', charge, { 'x-api-key': env.APP_API_KEY });
console.log('v1', status, body.id);
let [, auth] = await call('POST', 'https://api-gateway.pague.dev/v2/auth', { client_id: env.APP_CLIENT_ID, client_secret: env.APP_CLIENT_SECRET }, {});
[status, body] = await call('POST', 'https://api-gateway.pague.dev/v2/pix', charge, { authorization: `Bearer ${auth.access_token}` });
console.log('v2', status, body.id);
const basic = Buffer.from(`${env.APP_CLIENT_ID}:${env.APP_CLIENT_SECRET}`).toString('base64');
[, auth] = await call('POST', `${env.APP_PIX_URL}/oauth/token`, 'grant_type=client_credentials', { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' });
const cob = { calendario: { expiracao: 3600 }, valor: { original: '123.45' }, chave: '8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d' };
[status, body] = await call('PUT', `${env.APP_PIX_URL}/v2/cob/${env.APP_TXID}`, cob, { authorization: `Bearer ${auth.access_token}` });
console.log('cob', status, body.status);
