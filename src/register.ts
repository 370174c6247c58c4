// The register hook (sandbox.md 13), with PIX_SANDBOX_URL: this process's connections to the service's hosts go to the
// sandbox at that URL, in another process; every other connection is untouched. Two builds of this one file:
// dist/register.cjs for `--require` (what `pix-sandbox env` puts in NODE_OPTIONS: a preload that runs before an ES
// module app too, and spares the start the ES module loader) and dist/register.js for `--import pix-sandbox/register`.
// Invariants:
// - nothing happens at load but patching three functions: no call, no exit, no undici, no module beyond Node's net
//   and tls (bench:register); a missing or bad PIX_SANDBOX_URL, or a sandbox that does not answer, fails only a
//   connection to a service host, naming it;
// - one mechanism: a connection to a service host:port is opened as a CONNECT tunnel through the sandbox's listener
//   (plain CONNECT is taken there also under --https), so TLS runs end to end with the proxy's leaf for that name and
//   the app's own TLS options (its client certificate: cert, key, pfx, passphrase) go with it as the app set them;
// - a tunnel never reaches a real host: its CONNECT says it is the hook's, and the proxy refuses it for a name it does
//   not serve.
// Built alone (scripts/build.mjs): it imports Node's built-ins only, and no `import.meta` (the CommonJS build has none).
import { createRequire, syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import tls from 'node:tls';
import { DEFAULT_SERVICE_HOSTS, HOOK_HEADER, parseServiceHosts, type Face } from './proxy/hosts';
import { sandboxHome } from './tls/home';

const PREFIX = 'pix-sandbox/register';
const START = 'Start the sandbox (npx pix-sandbox) and set PIX_SANDBOX_URL to where it listens (`eval "$(npx pix-sandbox env)"` sets it)';

/** Where the tunnels go, read at the first connection to a service host; a string says what to set instead. */
let sandbox: { host: string; port: number; origin: string } | string | undefined;
function sandboxAddress() {
  if (sandbox) return sandbox;
  const given = process.env.PIX_SANDBOX_URL;
  let url: URL | undefined;
  try {
    url = new URL(given ?? '');
  } catch {
    /* said below */
  }
  const hosts = serviceHosts();
  if (!given) sandbox = `PIX_SANDBOX_URL is not set, and this process's calls to the service's hosts go to the sandbox it names. ${START}, or drop pix-sandbox/register from NODE_OPTIONS.`;
  else if (url?.protocol !== 'http:' && url?.protocol !== 'https:') sandbox = `PIX_SANDBOX_URL='${given}' is not an http:// or https:// URL. Set it to the sandbox's base URL, like http://127.0.0.1:4747: ${START}.`;
  else if ('error' in hosts) sandbox = `SANDBOX_SERVICE_HOSTS: ${hosts.error}. Set it as the sandbox's env prints it (eval "$(npx pix-sandbox env)").`;
  else sandbox = { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)), origin: url.origin };
  return sandbox;
}

/** SANDBOX_SERVICE_HOSTS, read at the first connection (nothing at start). */
let parsed: ReturnType<typeof parseServiceHosts> | undefined;
function serviceHosts() {
  parsed ??= parseServiceHosts((process.env.SANDBOX_SERVICE_HOSTS ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  return parsed;
}
function isServiceHost(host: unknown): host is string {
  if (typeof host !== 'string') return false;
  const given = serviceHosts();
  // A bad SANDBOX_SERVICE_HOSTS still names the service's own hosts: a connection to one fails with its error.
  const hosts: Readonly<Record<string, Face>> = 'error' in given ? DEFAULT_SERVICE_HOSTS : given.hosts;
  return Object.hasOwn(hosts, host.toLowerCase().replace(/\.$/, ''));
}

const connectNet = net.connect;
const connectTls = tls.connect;

/**
 * A tunnel to `host:port` through the sandbox's listener, usable at once: the CONNECT line goes first and what the
 * app writes follows it (the listener reads past the request), and the proxy's `HTTP/1.1 200` answer is dropped before
 * any byte is passed up. It stands for a net.Socket to the node:http agents and undici (the few methods they call).
 */
class Tunnel extends Duplex {
  connecting = true;
  readonly #socket: net.Socket;
  #answer: Buffer | null = Buffer.alloc(0); // the proxy's answer, until its end is read
  readonly #target: string;

  constructor(host: string, port: number, allowHalfOpen: boolean) {
    super({ allowHalfOpen });
    this.#target = `${host}:${port}`;
    const to = sandboxAddress();
    if (typeof to === 'string') {
      this.#socket = new net.Socket();
      process.nextTick(() => this.destroy(Object.assign(new Error(`${PREFIX}: ${to}`), { code: 'ERR_PIX_SANDBOX_URL' })));
      return;
    }
    const socket = (this.#socket = connectNet({ host: to.host, port: to.port, allowHalfOpen: true }));
    socket.write(`CONNECT ${this.#target} HTTP/1.1\r\nhost: ${this.#target}\r\n${HOOK_HEADER}: 1\r\n\r\n`);
    socket.on('data', (chunk: Buffer) => {
      if (this.#answer) return this.#readAnswer(chunk, to.origin);
      if (!this.push(chunk)) socket.pause();
    });
    socket.on('end', () => this.#answer || this.push(null));
    socket.on('timeout', () => this.emit('timeout'));
    socket.on('close', () => {
      if (this.#answer) this.destroy(new Error(`${PREFIX}: PIX_SANDBOX_URL=${to.origin} closed the connection before answering CONNECT ${this.#target}: it is not a pix-sandbox. ${START}.`));
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (!this.#answer) return this.destroy(err);
      this.destroy(Object.assign(new Error(`${PREFIX}: PIX_SANDBOX_URL=${to.origin} does not answer (${err.code ?? err.message}), and this process's calls to ${this.#target} go to the sandbox there. ${START}.`), { code: err.code, cause: err }));
    });
  }

  #readAnswer(chunk: Buffer, origin: string) {
    const answer = Buffer.concat([this.#answer!, chunk]);
    const end = answer.indexOf('\r\n\r\n');
    if (end < 0) {
      this.#answer = answer;
      if (answer.length > 16 * 1024) this.destroy(new Error(`${PREFIX}: PIX_SANDBOX_URL=${origin} answered CONNECT ${this.#target} with no end of headers: it is not a pix-sandbox. ${START}.`));
      return;
    }
    const status = answer.subarray(0, answer.indexOf('\r\n')).toString('latin1');
    if (!/^HTTP\/1\.[01] 200\b/.test(status)) {
      const body = answer.subarray(end + 4).toString('utf8');
      const said = envelopeMessage(body); // a pix-sandbox says why, and what to do
      const why = said ?? `${body ? `${body.slice(0, 500)}. ` : ''}It must be a pix-sandbox serving ${this.#target.replace(/:\d+$/, '')}: start it with --service-host for that name, or set PIX_SANDBOX_URL to one that does.`;
      return this.destroy(new Error(`${PREFIX}: PIX_SANDBOX_URL=${origin} refused the tunnel to ${this.#target} (${status}): ${why}`));
    }
    this.#answer = null;
    this.connecting = false;
    this.emit('connect');
    this.emit('ready');
    if (answer.length > end + 4) this.push(answer.subarray(end + 4));
  }

  override _read() {
    this.#socket.resume();
  }
  override _write(chunk: Buffer, encoding: BufferEncoding, done: (err?: Error | null) => void) {
    this.#socket.write(chunk, encoding, done);
  }
  override _final(done: () => void) {
    this.#socket.end(done);
  }
  override _destroy(err: Error | null, done: (err?: Error | null) => void) {
    this.#socket.destroy();
    done(err);
  }
  setTimeout(ms: number, onTimeout?: () => void) {
    this.#socket.setTimeout(ms);
    if (onTimeout) ms ? this.once('timeout', onTimeout) : this.off('timeout', onTimeout);
    return this;
  }
  setNoDelay(noDelay?: boolean) {
    this.#socket.setNoDelay(noDelay);
    return this;
  }
  setKeepAlive(enable?: boolean, delay?: number) {
    this.#socket.setKeepAlive(enable, delay);
    return this;
  }
  ref() {
    this.#socket.ref();
    return this;
  }
  unref() {
    this.#socket.unref();
    return this;
  }
  address() {
    return this.#socket.address();
  }
  get remoteAddress() {
    return this.#socket.remoteAddress;
  }
  get remotePort() {
    return this.#socket.remotePort;
  }
  get localAddress() {
    return this.#socket.localAddress;
  }
  get localPort() {
    return this.#socket.localPort;
  }
}

/** The message of the sandbox's error envelope in a refused CONNECT's body; undefined for any other body. */
function envelopeMessage(body: string): string | undefined {
  try {
    const { message } = JSON.parse(body) as { message?: unknown };
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined; // not the envelope (or not all of it in this chunk): said as it came
  }
}

/** [options, callback] of any of net.connect's and tls.connect's signatures, as Node reads them. */
function connectArgs(args: unknown[]): [Record<string, any>, (() => void) | undefined] {
  const [options, callback] = (net as unknown as { _normalizeArgs(a: unknown[]): [Record<string, any>, (() => void)?] })._normalizeArgs(args);
  // tls.connect(port, host, options): Node merges the TLS options of the second or third argument (_tls_wrap.js).
  const extra = [args[1], args[2]].find((a) => a !== null && typeof a === 'object');
  return [extra ? { ...options, ...extra } : options, callback];
}

/**
 * The trust of a tunnel's TLS: the peer is always the sandbox, so its CA is added to the app's own `ca` (which replaces
 * Node's store, NODE_EXTRA_CA_CERTS included), or is the whole `ca` when the app gives none and Node's store does not
 * hold it already. Read from PIX_SANDBOX_CA, else NODE_EXTRA_CA_CERTS (what `env` sets), else the ca.pem of this
 * machine's sandbox home (PIX_SANDBOX_HOME or ~/.pix-sandbox), so the hook alone reaches a sandbox of this machine.
 */
let sandboxCa: string | undefined;
function withSandboxCa(ca: tls.ConnectionOptions['ca']): tls.ConnectionOptions['ca'] {
  const { PIX_SANDBOX_CA: given, NODE_EXTRA_CA_CERTS: extra } = process.env;
  if (ca === undefined && extra && !given) return undefined; // Node's store holds it
  try {
    sandboxCa ??= readFileSync(given || extra || join(sandboxHome(), 'ca.pem'), 'utf8');
  } catch {
    return ca; // not made yet, or elsewhere: the handshake's error says what to set (trustHint)
  }
  return ca === undefined ? sandboxCa : [...(Array.isArray(ca) ? ca : [ca]), sandboxCa];
}

/** A certificate the tunnel's TLS could not verify: the error also says how to trust the sandbox's CA. */
function trustHint(err: NodeJS.ErrnoException) {
  if (!/CERT|SIGNATURE|ISSUER/.test(err.code ?? '')) return;
  err.message += `. ${PREFIX}: the sandbox's CA is not trusted: set NODE_EXTRA_CA_CERTS or PIX_SANDBOX_CA to its ca.pem (\`eval "$(npx pix-sandbox env)"\` does; GET /_sandbox/ca.pem serves it)`;
}

function netConnect(...args: unknown[]): net.Socket {
  const [options, callback] = connectArgs(args);
  if (options.path || !isServiceHost(options.host)) return (connectNet as (...a: unknown[]) => net.Socket)(...args);
  const tunnel = new Tunnel(options.host, Number(options.port ?? 80), options.allowHalfOpen === true);
  if (options.timeout) tunnel.setTimeout(options.timeout);
  if (callback) tunnel.once('connect', callback);
  return tunnel as unknown as net.Socket;
}

function tlsConnect(...args: unknown[]): tls.TLSSocket {
  const [options, callback] = connectArgs(args);
  if (options.socket || options.path || !isServiceHost(options.host)) return (connectTls as (...a: unknown[]) => tls.TLSSocket)(...args);
  const socket = new Tunnel(options.host, Number(options.port ?? 443), options.allowHalfOpen === true);
  const secured = connectTls({ ...options, socket, servername: options.servername ?? options.host, ca: withSandboxCa(options.ca) }, callback);
  secured.prependListener('error', trustHint);
  return secured;
}

/** Marks node:net once one build of the hook has patched it: the other (NODE_OPTIONS' --require and an --import
 * pix-sandbox/register given by hand) leaves it as it is, so a connection is re-addressed once. */
const INSTALLED = Symbol.for('pix-sandbox/register');
if (!Object.hasOwn(net, INSTALLED)) install();

function install() {
  Object.defineProperty(net, INSTALLED, { value: true });
  // The doors: what undici (Node's own behind global fetch, and an app's from node_modules) and https.Agent call, by
  // property, at each connection (so on Node 20.20 with its undici 6.24, and undici 6.29: test/proxy/register.test.ts).
  net.connect = net.createConnection = netConnect as typeof net.connect;
  tls.connect = tlsConnect as typeof tls.connect;
  // A second door for node:http: its Agent takes net.createConnection itself when node:http loads. Loaded later, it
  // takes the patched one; loaded already (a preload before this one), its Agent is patched here. Not loading
  // node:http for it is start time saved.
  if ((process as unknown as { moduleLoadList: string[] }).moduleLoadList.includes('NativeModule _http_agent')) {
    // Any absolute path anchors a require of a built-in; this file's own URL is not one under both builds.
    const { Agent } = createRequire(process.execPath)('node:http') as typeof import('node:http');
    if (Agent.prototype.createConnection === connectNet) Agent.prototype.createConnection = netConnect as typeof Agent.prototype.createConnection;
  }
  // `import { connect } from 'node:tls'` in the app sees the patched functions too: under --import, this module's own
  // import made node:tls's ES module exports before the patch (under --require, the app's first import makes them).
  syncBuiltinESMExports();
}
