// `node --import pix-sandbox/register app.js` (or NODE_OPTIONS=--import=pix-sandbox/register), with PIX_SANDBOX_URL
// (sandbox.md 13): this process's requests to the service's hosts go to the sandbox at that URL, in another process;
// every other request is untouched. Built alone into dist/register.js (scripts/build.mjs): an app process loads this
// file and undici, nothing of the sandbox itself.
// Two doors cover what apps use, and neither needs TLS or a certificate (the request goes to the sandbox's own port):
// - global fetch: undici's global dispatcher (Node's fetch reads the one setGlobalDispatcher sets), an Agent whose
//   requests to a service host are re-addressed to the sandbox;
// - node:http and node:https (axios, got, the SDKs built on them): their request() and get() re-address the same way.
// A service host's request keeps its path on the name's face (api.pague.dev/v1/pix is PIX_SANDBOX_URL/v1/pix).
import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import { Agent, setGlobalDispatcher, type Dispatcher } from 'undici';
import { facePath, parseServiceHosts, type Face } from './proxy/hosts';

function stop(message: string): never {
  process.stderr.write(`pix-sandbox/register: ${message}\n`);
  process.exit(1);
}

const given = process.env.PIX_SANDBOX_URL;
if (!given) stop('PIX_SANDBOX_URL is not set. Set it to the sandbox this process should reach (like http://127.0.0.1:4747; `eval "$(npx pix-sandbox env)"` sets it), or drop --import pix-sandbox/register.');
let sandbox: URL;
try {
  sandbox = new URL(given);
  if (sandbox.protocol !== 'http:' && sandbox.protocol !== 'https:') throw new Error('not http(s)');
} catch {
  stop(`PIX_SANDBOX_URL='${given}' is not an http:// or https:// URL. Set it to the sandbox's base URL, like http://127.0.0.1:4747.`);
}
const parsedHosts = parseServiceHosts((process.env.SANDBOX_SERVICE_HOSTS ?? '').split(',').map((s) => s.trim()).filter(Boolean));
if ('error' in parsedHosts) stop(`SANDBOX_SERVICE_HOSTS: ${parsedHosts.error}`);
const hosts: Record<string, Face> = parsedHosts.hosts;

// Any answer will do (with an admin token, health answers 401): what stops the start is nobody answering.
const unreachable = await new Promise<string | null>((resolve) => {
  const req = (sandbox.protocol === 'https:' ? https : http).get(new URL('/_sandbox/health', sandbox), { timeout: 5_000 }, (res) => {
    res.resume();
    resolve(null);
  });
  req.on('timeout', () => req.destroy(Object.assign(new Error('no answer within 5 s'), { code: 'ETIMEDOUT' })));
  req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
});
if (unreachable) stop(`PIX_SANDBOX_URL=${sandbox.origin} does not answer (${unreachable}). Start the sandbox there first (npx pix-sandbox), or set PIX_SANDBOX_URL to where it listens.`);

const faceOf = (hostname: string | null | undefined): Face | undefined => (hostname ? hosts[hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '')] : undefined);

// global fetch
const toSandbox = (dispatch: Dispatcher['dispatch']): Dispatcher['dispatch'] => (opts, handler) => {
  const origin = typeof opts.origin === 'string' ? new URL(opts.origin) : opts.origin;
  const face = faceOf(origin?.hostname);
  if (!face) return dispatch(opts, handler);
  return dispatch({ ...opts, origin: sandbox.origin, path: facePath(face, opts.path) }, handler);
};
setGlobalDispatcher(new Agent().compose(toSandbox));

// node:http and node:https
type RequestArgs = [url: string | URL | http.RequestOptions, options?: http.RequestOptions | ((res: http.IncomingMessage) => void), callback?: (res: http.IncomingMessage) => void];
const sandboxModule = sandbox.protocol === 'https:' ? https : http;
const nativeRequest = sandboxModule.request.bind(sandboxModule);

/** The request's options re-addressed to the sandbox when it is for a service host; null when it is not. */
function reAddressed(args: RequestArgs): [http.RequestOptions, ((res: http.IncomingMessage) => void) | undefined] | null {
  const [first, second, third] = args;
  let options: http.RequestOptions;
  let callback: ((res: http.IncomingMessage) => void) | undefined;
  if (typeof first === 'string' || first instanceof URL) {
    const url = new URL(first);
    const rest = typeof second === 'object' && second !== null ? second : {};
    options = { hostname: url.hostname, port: url.port || undefined, path: `${url.pathname}${url.search}`, ...rest };
    callback = typeof second === 'function' ? second : third;
  } else {
    options = { ...first };
    callback = typeof second === 'function' ? second : third;
  }
  const hostname = options.hostname ?? options.host?.replace(/:\d+$/, '');
  const face = faceOf(hostname);
  if (!face) return null;
  const headers = { ...(options.headers as Record<string, string> | undefined) };
  for (const name of Object.keys(headers)) if (name.toLowerCase() === 'host') delete headers[name];
  const { agent: _agent, servername: _servername, socketPath: _socketPath, createConnection: _createConnection, ...kept } = options as http.RequestOptions & { servername?: string };
  return [
    { ...kept, protocol: sandbox.protocol, host: sandbox.hostname, hostname: sandbox.hostname.replace(/^\[(.*)\]$/, '$1'), port: sandbox.port || undefined, path: facePath(face, options.path ?? '/'), headers },
    callback,
  ];
}

for (const mod of [http, https]) {
  const request = mod.request.bind(mod) as (...args: RequestArgs) => http.ClientRequest;
  mod.request = ((...args: RequestArgs) => {
    const moved = reAddressed(args);
    return moved ? nativeRequest(moved[0], moved[1]) : request(...args);
  }) as typeof mod.request;
  mod.get = ((...args: RequestArgs) => {
    const req = (mod.request as (...a: RequestArgs) => http.ClientRequest)(...args);
    req.end();
    return req;
  }) as typeof mod.get;
}
// `import { request } from 'node:https'` in the app sees the patched functions too.
syncBuiltinESMExports();
