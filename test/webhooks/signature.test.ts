import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { verifyWebhookSignature } from '../../src/index';

const SECRET = 'whsec_sandbox_default_secret';
const BODY = '{"event":"payment_completed","eventId":"abc","timestamp":"2026-03-10T12:00:00.000Z","subAccount":null,"data":{"nota":"ação ☕"}}';
const SIGNATURE = `sha256=${createHmac('sha256', SECRET).update(Buffer.from(BODY, 'utf8')).digest('hex')}`;

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('verifyWebhookSignature (package export)', () => {
  const bytes = Buffer.from(BODY, 'utf8');
  test.each([
    ['a string', BODY],
    ['a Buffer', bytes],
    ['a Uint8Array', new Uint8Array(bytes)],
    ['an ArrayBuffer', bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)],
  ])('accepts the raw body as %s', (_what, body) => {
    expect(verifyWebhookSignature(body, SIGNATURE, SECRET)).toBe(true);
  });

  test('accepts the header with surrounding spaces or upper-case hex', () => {
    expect(verifyWebhookSignature(BODY, ` ${SIGNATURE} `, SECRET)).toBe(true);
    expect(verifyWebhookSignature(BODY, `sha256=${SIGNATURE.slice(7).toUpperCase()}`, SECRET)).toBe(true);
  });

  test.each([
    ['another secret', BODY, SIGNATURE, 'whsec_other'],
    ['one byte of the body changed', BODY.replace('abc', 'abd'), SIGNATURE, SECRET],
    ['the body re-serialized after parsing (spacing differs)', JSON.stringify(JSON.parse(BODY), null, 1), SIGNATURE, SECRET],
    ['the parsed object instead of the raw body', JSON.parse(BODY), SIGNATURE, SECRET],
    ['no header', BODY, undefined, SECRET],
    ['a null header', BODY, null, SECRET],
    ['an empty header', BODY, '', SECRET],
    ['the prefix alone', BODY, 'sha256=', SECRET],
    ['the hex without the prefix', BODY, SIGNATURE.slice(7), SECRET],
    ['another algorithm', BODY, SIGNATURE.replace('sha256', 'sha1'), SECRET],
    ['non-hex garbage of the right length', BODY, `sha256=${'z'.repeat(64)}`, SECRET],
    ['a header that is too long', BODY, `${SIGNATURE}00`, SECRET],
    ['a number as header', BODY, 42, SECRET],
    ['an empty secret', BODY, SIGNATURE, ''],
    ['a secret that is not a string', BODY, SIGNATURE, undefined],
  ])('is false, without throwing, for %s', (_what, body, header, secret) => {
    expect(verifyWebhookSignature(body as any, header as any, secret as any)).toBe(false);
  });

  test.skipIf(!hasOpenssl)('agrees with openssl dgst -sha256 -hmac over the exact body bytes (the command in docs/integrators.md)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-sig-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'body.json');
    writeFileSync(file, bytes);
    const hex = execFileSync('sh', ['-c', `openssl dgst -sha256 -hmac "$SECRET" < "$BODY_FILE" | awk '{print $NF}'`], { env: { ...process.env, SECRET, BODY_FILE: file } })
      .toString()
      .trim();
    expect(`sha256=${hex}`).toBe(SIGNATURE);
  });
});
