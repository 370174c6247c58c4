#!/usr/bin/env node
// `npm start` / `npx pix-sandbox`: read the configuration once, build the sandbox, listen, print the banner.
import { readCliConfig } from './config';
import { createSandbox, VERSION } from './app';
import { isLoopback } from './http/middleware/doors';

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
  const sandbox = await createSandbox(config.options);
  const url = await sandbox.listen({ port: config.port, host: config.host });
  // Before the banner: a supervisor may send SIGTERM as soon as it reads the banner, and that must close cleanly.
  const stop = async () => {
    await sandbox.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const account = Object.values(sandbox.deps.store.state.accounts)[0];
  const lines = [
    `pix-sandbox listening on ${url}`,
    `  version     ${VERSION}`,
    `  v2 API      ${url}/v2`,
    `  v1 API      ${url}/v1`,
    `  control     ${url}/_sandbox`,
    `  docs        ${url}/docs  (OpenAPI: ${url}/openapi.json)`,
    `  console     ${url}/  (pay page: ${url}/pay)`,
    `  JWKS        ${url}/.well-known/jwks.json`,
    // The code's host is a name for validators; the path is served here (a phone that must fetch it: --public-host).
    `  BR Codes    point at ${sandbox.deps.settings.publicHost}/pix/qr/<id>, served here at ${url}/pix/qr/<id>`,
    `  state       ${config.options.dataFile ? `file ${config.options.dataFile} (${sandbox.resumed ? 'resumed from it' : 'new'})` : 'memory (use --data FILE to keep it)'}`,
  ];
  if (account) {
    lines.push(`  account     ${account.id} (${account.name})`);
    for (const cr of account.credentials) lines.push(`  credential  client_id=${cr.clientId}  client_secret=${cr.clientSecret}  [${cr.permissions.join(', ')}${cr.subAccountAccess ? ', sub-account access' : ''}]`);
    for (const k of account.apiKeys) lines.push(`  v1 API key  ${k.key}  [${k.permissions.join(', ')}]`);
    for (const w of account.webhooks) lines.push(`  webhook     ${w.url ?? '(no URL yet: --webhook-url URL)'}  secret=${w.secret}`);
  }
  // sandbox.md 11: on the network without an admin token, everyone who reaches the port can read every secret.
  if (!isLoopback(config.host) && !config.options.adminToken)
    lines.push(`  WARNING     listening on ${config.host} with no admin token: anyone on the network can read every secret and reset the sandbox; start it with SANDBOX_ADMIN_TOKEN=<a secret>`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`pix-sandbox could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
