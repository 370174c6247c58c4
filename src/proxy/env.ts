// `pix-sandbox env` (sandbox.md 13): what a client process needs to reach the sandbox at the service's production URLs,
// as shell lines to eval, a .env file, JSON, PowerShell or GitHub Actions' $GITHUB_ENV. Everything comes from the
// sandbox at --url, asked at the time: its service hosts and its CA (so a sandbox of another PIX_SANDBOX_HOME, a
// container or a CI service, is trusted for what it is); nobody answering there is an error, never a guess. What it
// writes (the CA bundle, PHP's ini directory, Java's trust store) goes in PIX_SANDBOX_HOME under that CA's fingerprint.
import { createHash, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleText, writeIfChanged } from './bundle';
import { pemCertificates, trustStore } from './jks';
import { proxyUrlOf, readReadyFile } from './ready-file';

const FORMATS = ['sh', 'dotenv', 'json', 'powershell', 'github'] as const;
type Format = (typeof FORMATS)[number];
export const DEFAULT_URL = 'http://127.0.0.1:4747';
/** How long the sandbox has to answer before env says nobody does. */
const ASK_TIMEOUT_MS = 5_000;
/** The Java trust store's password: it guards nothing (the store holds public certificates only), Java wants one. */
const TRUST_STORE_PASSWORD = 'changeit';

export const ENV_HELP = `Usage: pix-sandbox env [--format sh|dotenv|json|powershell|github] [--url URL]

Prints the environment a client process needs to reach the sandbox at the service's production URLs
(https://api.pague.dev/v1, https://api-gateway.pague.dev/v2, each --service-host) with nothing in the app changed:
  eval "$(npx pix-sandbox env)"     then start the app in that shell

  --url URL      the sandbox, which must be running (default: the one PIX_SANDBOX_HOME's ready.json names, else ${DEFAULT_URL})
  --format F     sh (default), dotenv, json, powershell, or github (appends to the file $GITHUB_ENV names)
`;

type Result = { out: string; note?: string } | { error: string; code?: number };

/** What the sandbox says of itself (GET /_sandbox/proxy, GET /_sandbox/ca.pem). */
export interface SandboxFacts {
  serviceHosts: Record<string, string>;
  caPem: string;
}

/**
 * The register hook as NODE_OPTIONS loads it: `--require` of this package's own CommonJS build by path (found whether
 * installed or run by npx), a preload that runs before an ES module app too and spares each start the ES module
 * loader that `--import` costs (bench:register). NODE_OPTIONS splits on spaces outside double quotes.
 */
function registerOption(): string {
  const own = fileURLToPath(new URL('./register.cjs', import.meta.url));
  if (!existsSync(own)) return '--require=pix-sandbox/register';
  return `--require=${/[\s"\\]/.test(own) ? `"${own.replace(/["\\]/g, '\\$&')}"` : own}`;
}

/** The default world's v1 API key (fixtures/default.json beside dist/, or beside src/ when run from source). */
function defaultApiKey(): string | undefined {
  for (const rel of ['../fixtures/default.json', '../../fixtures/default.json']) {
    try {
      const world = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { accounts?: { apiKeys?: { key?: string }[] }[] };
      return world.accounts?.[0]?.apiKeys?.[0]?.key;
    } catch {}
  }
  return undefined;
}

class Unanswered extends Error {}
/** Errors that mean nobody answers at the URL (others, such as a certificate refused, are said as they are). */
const UNANSWERED = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/** One GET to the sandbox; `ca` verifies an https:// sandbox's certificate (undefined: not verified, to learn the CA). */
function ask(url: string, token: string | undefined, ca?: string): Promise<string> {
  const secure = url.startsWith('https:');
  const request = secure ? httpsRequest : httpRequest;
  const tlsOptions = secure ? (ca ? { ca: [...rootCertificates, ca] } : { rejectUnauthorized: false }) : {};
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: token ? { 'x-sandbox-token': token } : {}, timeout: ASK_TIMEOUT_MS, ...tlsOptions }, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => {
        if (res.statusCode === 200) return resolve(body);
        const hint = res.statusCode === 401 ? ': it has an admin token; set SANDBOX_ADMIN_TOKEN to it in this shell' : res.statusCode === 404 ? ': is it a pix-sandbox (of this version or later)?' : '';
        reject(new Error(`GET ${url} answered ${res.statusCode}${hint}`));
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Unanswered(`no answer within ${ASK_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => reject(err instanceof Unanswered || UNANSWERED.has(err.code ?? '') ? Object.assign(new Unanswered(err.code ?? err.message), { code: err.code }) : err));
    req.end();
  });
}

/** The service hosts and the CA of the sandbox at `url`. */
export async function askSandbox(url: string, token?: string): Promise<SandboxFacts> {
  const caPem = await ask(`${url}/_sandbox/ca.pem`, token);
  if (pemCertificates(caPem).length !== 1) throw new Error(`GET ${url}/_sandbox/ca.pem did not answer one PEM certificate: is it a pix-sandbox?`);
  const info = JSON.parse(await ask(`${url}/_sandbox/proxy`, token, caPem)) as { serviceHosts?: Record<string, string> };
  return { serviceHosts: info.serviceHosts ?? {}, caPem };
}

/** Files env writes for one CA: `dir` is PIX_SANDBOX_HOME/env/<the CA's fingerprint>. */
function filesOf(dir: string) {
  return { ca: join(dir, 'ca.pem'), bundle: join(dir, 'ca-bundle.pem'), trustStore: join(dir, 'truststore.jks'), phpDir: join(dir, 'php'), phpIni: join(dir, 'php', 'pix-sandbox.ini'), phpPrepend: join(dir, 'php', 'prepend.php') };
}

// Prepended to every PHP script of the shell (auto_prepend_file in the ini directory PHP_INI_SCAN_DIR names): PHP's
// stream wrappers read no proxy variable, so it re-registers http:// and https:// with a wrapper that adds the proxy
// to the caller's own context for the service's hosts and opens the URL with PHP's own wrapper.
const PHP_PREPEND = String.raw`<?php
// Written by pix-sandbox env and loaded by auto_prepend_file (PHP_INI_SCAN_DIR). PHP's http:// and https:// streams
// (file_get_contents, fopen) read no proxy variable: this wrapper sends the ones to the service's hosts
// (SANDBOX_SERVICE_HOSTS) through the proxy HTTPS_PROXY names, with the caller's own context (headers, method, body)
// and PHP's own http wrapper; every other URL goes as it would. curl and Guzzle read HTTPS_PROXY themselves.
final class PixSandboxStreamWrapper
{
    public static $proxy = '';
    public static $hosts = [];
    /** @var resource|null set by PHP */
    public $context;
    /** @var resource|false */
    private $inner = false;

    public function stream_open($path, $mode, $options, &$opened_path)
    {
        $scheme = strtolower((string) parse_url($path, PHP_URL_SCHEME));
        $context = $this->context ?: stream_context_get_default();
        $settings = stream_context_get_options($context);
        if (isset(self::$hosts[strtolower((string) parse_url($path, PHP_URL_HOST))])) {
            $settings['http']['proxy'] = self::$proxy;
            $settings['http']['request_fulluri'] = true;
        }
        $params = stream_context_get_params($context);
        stream_wrapper_restore($scheme);
        try {
            $this->inner = fopen($path, $mode, false, stream_context_create($settings, isset($params['notification']) ? ['notification' => $params['notification']] : []));
        } finally {
            stream_wrapper_unregister($scheme);
            stream_wrapper_register($scheme, self::class);
        }
        return $this->inner !== false;
    }

    public function stream_read($count) { return fread($this->inner, $count); }
    public function stream_write($data) { return fwrite($this->inner, $data); }
    public function stream_eof() { return feof($this->inner); }
    public function stream_flush() { return fflush($this->inner); }
    public function stream_stat() { return fstat($this->inner); }
    public function stream_close() { fclose($this->inner); }
    public function stream_set_option($option, $arg1, $arg2) { return false; }
    public function url_stat($path, $flags) { return false; }
}

(static function () {
    $proxy = getenv('https_proxy') ?: getenv('HTTPS_PROXY');
    $at = $proxy ? parse_url($proxy) : false;
    $hosts = array_filter(array_map(static function ($item) { return strtolower(trim(explode('=', $item)[0])); }, explode(',', (string) getenv('SANDBOX_SERVICE_HOSTS'))));
    if (!$at || !isset($at['host']) || !$hosts) return;
    PixSandboxStreamWrapper::$proxy = 'tcp://' . $at['host'] . ':' . ($at['port'] ?? 80);
    PixSandboxStreamWrapper::$hosts = array_flip($hosts);
    foreach (['http', 'https'] as $scheme) {
        stream_wrapper_unregister($scheme);
        stream_wrapper_register($scheme, PixSandboxStreamWrapper::class);
    }
})();
`;

/** Writes the bundle, the sandbox's CA, PHP's ini directory and Java's trust store for `caPem`; their paths. */
async function writeClientFiles(home: string, caPem: string) {
  const fingerprint = createHash('sha256').update(pemCertificates(caPem)[0]!).digest('hex').slice(0, 16);
  const files = filesOf(join(home, 'env', fingerprint));
  const bundle = await bundleText(caPem, files.ca);
  writeIfChanged(files.ca, caPem);
  writeIfChanged(files.bundle, bundle);
  writeIfChanged(files.phpPrepend, PHP_PREPEND);
  // PHP's curl extension reads neither SSL_CERT_FILE nor CURL_CA_BUNDLE: its CA file comes from the ini.
  writeIfChanged(files.phpIni, `; Written by pix-sandbox env\ncurl.cainfo = "${files.bundle}"\nopenssl.cafile = "${files.bundle}"\nauto_prepend_file = "${files.phpPrepend}"\n`);
  const certificates = pemCertificates(bundle);
  const entries = certificates.map((der, i) => ({ alias: i === certificates.length - 1 ? 'pix-sandbox' : `system-${i}`, der }));
  writeIfChanged(files.trustStore, trustStore(entries, TRUST_STORE_PASSWORD));
  return files;
}

/** A JVM option, quoted when it holds a space (the JVM splits JAVA_TOOL_OPTIONS on white space outside quotes). */
const jvmOption = (name: string, value: string) => (/\s/.test(value) ? `"-D${name}=${value}"` : `-D${name}=${value}`);

export async function envVariables(opts: { url: string; home: string; facts: SandboxFacts; apiKey?: string }): Promise<Record<string, string>> {
  const files = await writeClientFiles(opts.home, opts.facts.caPem);
  const proxy = proxyUrlOf(opts.url);
  const own = new URL(opts.url).hostname.replace(/^\[(.*)\]$/, '$1');
  const loopback = [...new Set(['localhost', '127.0.0.1', '::1', own])];
  const noProxy = loopback.join(',');
  const proxyAt = new URL(proxy);
  const proxyHost = proxyAt.hostname.replace(/^\[(.*)\]$/, '$1');
  const proxyPort = proxyAt.port || '80';
  const java = [
    jvmOption('https.proxyHost', proxyHost),
    jvmOption('https.proxyPort', proxyPort),
    jvmOption('http.proxyHost', proxyHost),
    jvmOption('http.proxyPort', proxyPort),
    jvmOption('http.nonProxyHosts', loopback.map((h) => (h.includes(':') ? `[${h}]` : h)).join('|')),
    jvmOption('javax.net.ssl.trustStore', files.trustStore),
    jvmOption('javax.net.ssl.trustStorePassword', TRUST_STORE_PASSWORD),
    jvmOption('javax.net.ssl.trustStoreType', 'JKS'),
  ];
  const vars: Record<string, string> = {
    HTTPS_PROXY: proxy,
    HTTP_PROXY: proxy,
    NO_PROXY: noProxy,
    // curl reads http_proxy in lower case only; most tools read either.
    https_proxy: proxy,
    http_proxy: proxy,
    no_proxy: noProxy,
    SSL_CERT_FILE: files.bundle,
    REQUESTS_CA_BUNDLE: files.bundle,
    CURL_CA_BUNDLE: files.bundle,
    NODE_EXTRA_CA_CERTS: files.ca,
    NODE_OPTIONS: registerOption(),
    PIX_SANDBOX_URL: opts.url,
    SANDBOX_SERVICE_HOSTS: Object.entries(opts.facts.serviceHosts).map(([name, face]) => `${name}=${face}`).join(','),
    // A leading separator keeps PHP's own scan directory (its extensions' ini files, curl's among them).
    PHP_INI_SCAN_DIR: `:${files.phpDir}`,
    JAVA_TOOL_OPTIONS: java.join(' '),
  };
  const key = opts.apiKey ?? defaultApiKey();
  if (key) vars.PDEV_API_KEY = key;
  return vars;
}

const single = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;

export function formatVariables(vars: Record<string, string>, format: Format): string {
  const entries = Object.entries(vars);
  switch (format) {
    case 'json':
      return `${JSON.stringify(vars, null, 2)}\n`;
    case 'dotenv':
      return entries.map(([k, v]) => `${k}=${/^[\w./:,@=+-]*$/.test(v) ? v : JSON.stringify(v)}`).join('\n') + '\n';
    case 'powershell':
      // Windows' variables ignore case: the lower-case twins would only repeat the upper-case ones.
      return entries.filter(([k]) => k !== k.toLowerCase()).map(([k, v]) => `$env:${k} = '${v.replace(/'/g, "''")}'`).join('\n') + '\n';
    case 'github': {
      // GitHub's multi-line syntax (NAME<<DELIMITER), with a delimiter no value can hold: safe for any value.
      const delimiter = `pix_sandbox_${randomUUID()}`;
      return entries.map(([k, v]) => `${k}<<${delimiter}\n${v}\n${delimiter}\n`).join('');
    }
    default:
      return entries.map(([k, v]) => `export ${k}=${single(v)}`).join('\n') + '\n';
  }
}

/** The subcommand: its output (and a note for stderr), or an error for stderr (exit `code`, 2 by default). */
export async function runEnv(argv: string[], home: string, env: NodeJS.ProcessEnv = process.env): Promise<Result> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { format: { type: 'string' }, url: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    return { error: `${(err as Error).message}\n\n${ENV_HELP}` };
  }
  if (values.help) return { out: ENV_HELP };
  const format = (values.format ?? 'sh') as Format;
  if (!FORMATS.includes(format)) return { error: `--format takes ${FORMATS.join(', ')}, got '${values.format}'` };
  if (format === 'github' && !env.GITHUB_ENV)
    return { error: '--format github appends to the file $GITHUB_ENV names, and GITHUB_ENV is not set: run it in a GitHub Actions step, or use --format sh, dotenv, json or powershell' };
  const ready = values.url === undefined ? readReadyFile(home) : undefined;
  const url = (values.url ?? ready?.url ?? DEFAULT_URL).replace(/\/+$/, '');
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    return { error: `--url takes the sandbox's base URL, like ${DEFAULT_URL}, got '${values.url}'` };
  }
  let facts: SandboxFacts;
  try {
    facts = await askSandbox(url, env.SANDBOX_ADMIN_TOKEN || undefined);
  } catch (err) {
    if (err instanceof Unanswered)
      return { code: 1, error: `No sandbox answers at ${url} (${err.message}). Start it first (npx pix-sandbox, or npx pix-sandbox --port 0 --ready-json in a harness), or give its address with --url.` };
    return { code: 1, error: `The sandbox at ${url} could not be asked for its CA and service hosts: ${(err as Error).message}` };
  }
  let vars;
  try {
    vars = await envVariables({ url, home, facts, apiKey: ready?.apiKey });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!code) throw err;
    return { code: 1, error: `PIX_SANDBOX_HOME=${home} cannot be written (${code}): env writes the CA bundle, PHP's ini directory and Java's trust store there. Set PIX_SANDBOX_HOME to a directory you can write.` };
  }
  const out = formatVariables(vars, format);
  if (format !== 'github') return { out };
  try {
    appendFileSync(env.GITHUB_ENV!, out);
  } catch (err) {
    return { code: 1, error: `GITHUB_ENV=${env.GITHUB_ENV} cannot be appended to (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  return { out: '', note: `pix-sandbox env: ${Object.keys(vars).length} variables appended to ${env.GITHUB_ENV} (the next steps of this job have them)` };
}
