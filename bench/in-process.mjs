// Calls to a sandbox made in process (app.request), for the benches that drive one without a port: JSON in and out,
// an optional bearer token, an empty answer as undefined, and any answer of 300 or more thrown with its body.
export const callerOf = (sb) => async (method, path, body, token) => {
  const headers = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const res = await sb.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
};
