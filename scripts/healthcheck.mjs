// The container's HEALTHCHECK (Dockerfile): GET /_sandbox/health on this container's own port; exit 0 when it
// answers 200. Runs in the image, which may have no curl or wget. Honours PORT, SANDBOX_ADMIN_TOKEN and SANDBOX_HTTPS
// (over loopback, the certificate is not checked: this probes liveness, not trust).
import { request as http } from 'node:http';
import { request as https } from 'node:https';

const secure = process.env.SANDBOX_HTTPS === '1';
const req = (secure ? https : http)(
  {
    host: '127.0.0.1',
    port: Number(process.env.PORT || 4747),
    path: '/_sandbox/health',
    headers: process.env.SANDBOX_ADMIN_TOKEN ? { 'x-sandbox-token': process.env.SANDBOX_ADMIN_TOKEN } : {},
    rejectUnauthorized: false,
    timeout: 2500,
  },
  (res) => {
    res.resume();
    process.exit(res.statusCode === 200 ? 0 : 1);
  },
);
req.on('timeout', () => req.destroy(new Error('timed out')));
req.on('error', (err) => {
  console.error(`health check failed: ${err.message}`);
  process.exit(1);
});
req.end();
