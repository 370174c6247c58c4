// What the request log masks (sandbox.md 14): secrets in the JSON bodies it gives out. Headers and queries are masked
// by the middleware as an entry is kept (wire/middleware/request-log.ts); bodies when an entry is read.

/** What every secret is replaced by, in headers, queries and bodies. */
export const MASK = '[masked]';
/** JSON fields whose value is a secret, lower-case: client secrets, tokens, webhook signing secrets, API keys. */
const SECRET_FIELDS = new Set(['client_secret', 'clientsecret', 'secret', 'access_token', 'accesstoken', 'refresh_token', 'id_token', 'token', 'password', 'apikey', 'api_key', 'x-api-key', 'privatekey', 'private_key']);
/** Text that may hold one (a quick test before any parse). */
const MAY_HOLD_SECRET = /secret|token|password|"key"|api_?key|private/i;
const API_KEY_VALUE = /^mp_(?:test|live)_/;

/** Masks secrets in a parsed JSON value, in place (it is a copy made for the log). */
function maskValue(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('PRIVATE KEY') ? MASK : value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = maskValue(value[i]);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const v = record[key];
      const lower = key.toLowerCase();
      // `key`: an API key (mp_test_...) or a certificate's private key; a Pix key (`key` of pixKeys) stays.
      if (typeof v === 'string' && (SECRET_FIELDS.has(lower) || (lower === 'key' && API_KEY_VALUE.test(v)))) record[key] = MASK;
      else record[key] = maskValue(v);
    }
  }
  return value;
}

/** JSON text with its secrets masked; undefined when it is not valid JSON. `valid`: known to be JSON. */
export function maskedJson(text: string, valid: boolean): string | undefined {
  try {
    if (MAY_HOLD_SECRET.test(text)) return JSON.stringify(maskValue(JSON.parse(text)));
    if (!valid) JSON.parse(text);
    return text;
  } catch {
    return undefined;
  }
}
