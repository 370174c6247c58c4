// The CLI itself (src/cli.ts loads it once the compile cache is on): read the configuration once, build the sandbox,
// listen, print the banner.
import { retentionSummary } from './services/retention';
import { baseOf, joinUrlOf } from './services/workshop';
import { readCliConfig } from './config';
import { createSandbox, VERSION } from './app';
import { reachOf } from './server';
import { isLoopback } from './wire/middleware/doors';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { proxyUrlOf, removeReadyFile, writeReadyFile } from './proxy/ready-file';
import { fullNote, mb, recordsHeld } from './services/capacity';

async function main() {
  const config = readCliConfig(process.argv.slice(2), process.env);
  if ('help' in config) {
    process.stdout.write(config.help);
    return;
  }
  if ('version' in config) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  if ('error' in config) {
    process.stderr.write(`${config.error}\n`);
    process.exitCode = 2;
    return;
  }
  if ('ca' in config) {
    const { loadOrCreateCa } = await import('./tls');
    process.stdout.write(`${(await loadOrCreateCa(config.ca)).certPath}\n`);
    return;
  }
  if ('envCommand' in config) {
    const { runEnv } = await import('./proxy/env');
    const result = await runEnv(config.envCommand, config.home);
    if ('error' in result) {
      process.stderr.write(`${result.error}\n`);
      process.exitCode = result.code ?? 2;
    } else {
      process.stdout.write(result.out);
      if (result.note) process.stderr.write(`${result.note}\n`);
    }
    return;
  }
  // Each route group is loaded at the first request under its paths: the first answer does not wait for the rest.
  const sandbox = await createSandbox({ ...config.options, lazyRoutes: true });
  // Before listening: a supervisor may send SIGTERM as soon as it reads the banner or the first health answer (which
  // comes before the banner, server.ts), and that must close cleanly.
  const home = config.options.home!;
  const stop = async () => {
    removeReadyFile(home);
    await sandbox.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const url = await sandbox.listen({ port: config.port, host: config.host });
  // The addresses that reach it: the listener's own, or in the image what reaches a container (server.ts reachOf).
  const reach = reachOf(url, { host: config.host, loopback: isLoopback(config.host), container: !!config.options.container, adminToken: !!config.options.adminToken, hostname: hostname() });
  const shown = reach.base;
  const account = Object.values(sandbox.deps.store.state.accounts)[0];
  const tlsLines = !config.options.https ? [] : sandbox.ca ? trustLines(sandbox.ca.path) : [`  TLS         certificate ${config.options.tlsCertFile} (brought with --cert; clients trust its issuer)`];
  const lines = [
    `pix-sandbox listening on ${url}`,
    `  version     ${VERSION}`,
    ...reach.lines,
    `  v2 API      ${shown}/v2`,
    `  v1 API      ${shown}/v1`,
    `  control     ${shown}/_sandbox`,
    `  docs        ${shown}/docs  (OpenAPI: ${shown}/openapi.json)`,
    `  console     ${shown}/  (pay page: ${shown}/pay)`,
    `  JWKS        ${shown}/.well-known/jwks.json`,
    // The code's host is a name for validators; the path is served here (a phone that must fetch it: --public-host).
    `  BR Codes    point at ${sandbox.deps.settings.publicHost}/pix/qr/<id>, served here at ${shown}/pix/qr/<id>`,
    ...tlsLines,
    // sandbox.md 13: the same port is a proxy that serves the service's own names.
    `  proxy       HTTPS_PROXY=${proxyUrlOf(shown)} reaches ${Object.entries(config.options.serviceHosts ?? {}).map(([name, face]) => `https://${name} (${face})`).join(', ')}; pix-sandbox env prints the rest`,
    ...(sandbox.serviceUrl ? [serviceLine(sandbox.serviceUrl, Object.keys(config.options.serviceHosts ?? {}), sandbox.ca?.path ?? join(home, 'ca.pem'))] : []),
    ...(sandbox.serviceError ? [`  service TLS not served: ${sandbox.serviceError}`] : []),
    `  state       ${config.options.dataFile ? `file ${config.options.dataFile} (${sandbox.resumed ? 'resumed from it' : 'new'})` : 'memory (use --data FILE to keep it)'}`,
    recordsLine(recordsHeld(sandbox.deps), config.options.maxRecords !== undefined || config.options.maxBytes !== undefined, fullNote(sandbox.deps)),
  ];
  const retention = retentionSummary(sandbox.deps.retention.report());
  if (retention) lines.push(`  retention   ${retention}`);
  if (account) {
    lines.push(`  account     ${account.id} (${account.name})`);
    for (const cr of account.credentials) lines.push(`  credential  client_id=${cr.clientId}  client_secret=${cr.clientSecret}  [${cr.permissions.join(', ')}${cr.subAccountAccess ? ', sub-account access' : ''}]`);
    for (const k of account.apiKeys) lines.push(`  v1 API key  ${k.key}  [${k.permissions.join(', ')}]`);
    for (const w of account.webhooks) lines.push(`  webhook     ${w.url ?? '(no URL yet: --webhook-url URL)'}  secret=${w.secret}`);
  }
  // --host 0.0.0.0: the addresses a phone on the same network opens (the pages name the first one too).
  for (const lan of sandbox.deps.settings.lanUrls ?? []) lines.push(`  phones      ${lan}/  (pay page: ${lan}/pay)`);
  // --workshop: where attendees join, the room's code in it (the console's Room panel shows it as a QR).
  const room = sandbox.deps.workshop;
  if (room.code) lines.push(`  workshop    join at ${joinUrlOf(room, baseOf(sandbox.deps, shown))}  (room code ${room.code})`);
  // sandbox.md 11: on the network without an admin token, everyone who reaches the port can read every secret.
  if (reach.warning) lines.push(`  WARNING     ${reach.warning}`);
  // With --ready-json, stdout carries exactly one line a harness in any language can parse; people read stderr.
  (config.readyJson ? process.stderr : process.stdout).write(`${lines.join('\n')}\n`);
  const proxyUrl = proxyUrlOf(url);
  writeReadyFile(home, { url, proxyUrl, pid: process.pid, ...(account?.apiKeys[0] ? { apiKey: account.apiKeys[0].key } : {}) });
  if (config.readyJson) {
    // The bundle of the system's CAs and the sandbox's that the env command names (sandbox.md 13).
    const { writeCaBundle } = await import('./proxy/bundle');
    const { bundle } = await writeCaBundle(home);
    process.stdout.write(`${JSON.stringify({ ...readyLine(url, sandbox.ca?.path), proxyUrl, caBundle: bundle })}\n`);
  }
}

/**
 * The ready line of --ready-json: the addresses a harness needs, the pid to stop the sandbox with, and under --https
 * the local CA's certificate to trust (none with --cert: the harness trusts that certificate's own issuer).
 */
function readyLine(url: string, ca: string | undefined) {
  return { url, v2Url: `${url}/v2`, v1Url: `${url}/v1`, controlUrl: `${url}/_sandbox`, pid: process.pid, ...(ca ? { ca } : {}) };
}

/** How each client trusts the local CA (the path of ca.pem only: its key is never printed). */
function trustLines(ca: string): string[] {
  return [
    `  TLS         certificate signed by the local CA ${ca}; trust that file:`,
    `    Node      NODE_EXTRA_CA_CERTS=${ca}`,
    `    curl      curl --cacert ${ca} ...`,
    `    Python    REQUESTS_CA_BUNDLE=${ca} (requests), SSL_CERT_FILE=${ca} (httpx, urllib)`,
    `    PHP       eval "$(npx pix-sandbox env)": its PHP_INI_SCAN_DIR ini sets curl.cainfo and openssl.cafile`,
    `    Java      eval "$(npx pix-sandbox env)": its JAVA_TOOL_OPTIONS name a trust store holding the CA`,
  ];
}

main().catch((err) => {
  process.stderr.write(`pix-sandbox could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

/** The service port's line: the names it serves (at their own URLs when it is 443) and the CA their clients trust. */
function serviceLine(serviceUrl: string, names: string[], ca: string): string {
  const port = new URL(serviceUrl).port || '443'; // URL leaves out https' own port
  const urls = names.map((n) => `https://${n}${port === '443' ? '' : `:${port}`}`).join(', ');
  return `  service TLS port ${port} serves ${urls} by the name each client asks for; resolve the names to this sandbox (compose: network aliases) and trust ${ca}`;
}

/** The banner's records line: records and bytes held against the budget, and when it is full why and what raises it. */
function recordsLine(room: { held: number; limit: number; bytes: number; maxBytes: number }, given: boolean, full: string | null): string {
  const limit = `${room.limit} (${mb(room.bytes)} of ${mb(room.maxBytes)}${given ? '' : ', from the heap limit; --max-records N to choose'})`;
  return full ? `  records     FULL: ${full}` : `  records     ${room.held} held of ${limit}`;
}
