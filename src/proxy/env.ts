// `pix-sandbox env` (sandbox.md 13): what a client process needs to reach the sandbox at the service's production URLs,
// as shell lines to eval, a .env file, JSON or PowerShell. The proxy variables point at the sandbox's listener, the CA
// variables at a bundle of the system's CAs and the sandbox's, NODE_OPTIONS loads the register hook for Node apps
// (whose fetch ignores HTTPS_PROXY), and PDEV_API_KEY is the key the official Node SDK reads.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeCaBundle } from './bundle';
import { proxyUrlOf, readReadyFile } from './ready-file';

const FORMATS = ['sh', 'dotenv', 'json', 'powershell'] as const;
type Format = (typeof FORMATS)[number];
export const DEFAULT_URL = 'http://127.0.0.1:4747';

export const ENV_HELP = `Usage: pix-sandbox env [--format sh|dotenv|json|powershell] [--url URL]

Prints the environment a client process needs to reach the sandbox at the service's production URLs
(https://api.pague.dev/v1, https://api-gateway.pague.dev/v2) with nothing in the app changed:
  eval "$(npx pix-sandbox env)"     then start the app in that shell

  --url URL      the sandbox (default: the one PIX_SANDBOX_HOME's ready.json names, else ${DEFAULT_URL})
  --format F     sh (default), dotenv, json or powershell
`;

/** The register hook as NODE_OPTIONS names it: this package's own file (found whether installed or run by npx). */
function registerSpecifier(): string {
  const own = new URL('./register.js', import.meta.url);
  return existsSync(fileURLToPath(own)) ? own.href : 'pix-sandbox/register';
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

export async function envVariables(opts: { url: string; home: string; apiKey?: string }): Promise<Record<string, string>> {
  const { ca, bundle } = await writeCaBundle(opts.home);
  const proxy = proxyUrlOf(opts.url);
  const own = new URL(opts.url).hostname.replace(/^\[(.*)\]$/, '$1');
  const noProxy = [...new Set(['localhost', '127.0.0.1', '::1', own])].join(',');
  const vars: Record<string, string> = {
    HTTPS_PROXY: proxy,
    HTTP_PROXY: proxy,
    NO_PROXY: noProxy,
    // curl reads http_proxy in lower case only; most tools read either.
    https_proxy: proxy,
    http_proxy: proxy,
    no_proxy: noProxy,
    SSL_CERT_FILE: bundle,
    REQUESTS_CA_BUNDLE: bundle,
    CURL_CA_BUNDLE: bundle,
    NODE_EXTRA_CA_CERTS: ca,
    NODE_OPTIONS: `--import=${registerSpecifier()}`,
    PIX_SANDBOX_URL: opts.url,
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
    default:
      return entries.map(([k, v]) => `export ${k}=${single(v)}`).join('\n') + '\n';
  }
}

/** The subcommand: its output, or an error for stderr (exit 2). */
export async function runEnv(argv: string[], home: string): Promise<{ out: string } | { error: string }> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { format: { type: 'string' }, url: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    return { error: `${(err as Error).message}\n\n${ENV_HELP}` };
  }
  if (values.help) return { out: ENV_HELP };
  const format = (values.format ?? 'sh') as Format;
  if (!FORMATS.includes(format)) return { error: `--format takes ${FORMATS.join(', ')}, got '${values.format}'` };
  const ready = values.url === undefined ? readReadyFile(home) : undefined;
  const url = (values.url ?? ready?.url ?? DEFAULT_URL).replace(/\/+$/, '');
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    return { error: `--url takes the sandbox's base URL, like ${DEFAULT_URL}, got '${values.url}'` };
  }
  return { out: formatVariables(await envVariables({ url, home, apiKey: ready?.apiKey }), format) };
}
