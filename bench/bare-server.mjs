// The baseline: a bare Hono server on @hono/node-server. With a JWKS URL it verifies the bearer JWT on each request
// (as the sandbox must) and answers a JSON body of the requested size; without, it only answers /health.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createRemoteJWKSet, jwtVerify } from 'jose';

const port = Number(process.env.PORT ?? 4790);
const jwksUrl = process.env.JWKS_URL;
const size = Number(process.env.BODY_SIZE ?? 600);
const app = new Hono();
const payload = { id: 'x', pad: 'p'.repeat(Math.max(0, size - 20)) };
const jwks = jwksUrl ? createRemoteJWKSet(new URL(jwksUrl)) : null;

app.get('/health', (c) => c.json({ status: 'ok' }));
const verified = async (c) => {
  const auth = c.req.header('authorization') ?? '';
  try {
    await jwtVerify(auth.replace(/^Bearer /, ''), jwks);
  } catch {
    return c.json({ error: 'Unauthorized' }, 401);
  }
  return c.json(payload, c.req.method === 'POST' ? 201 : 200);
};
app.post('/bare', verified);
app.get('/bare', verified);
serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => process.stdout.write(`listening ${port}\n`));
