// --host 0.0.0.0 (sandbox.md 5.1): the addresses a phone on the same network can open, from os.networkInterfaces(),
// printed by the banner and named in the pages' header.
import { networkInterfaces } from 'node:os';
import { afterEach, expect, test } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import { lanUrls, reachOf } from '../../src/server';

const open: Sandbox[] = [];
afterEach(async () => {
  for (const sb of open.splice(0)) await sb.close();
});

const FAKE = {
  lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }],
  eth0: [
    { address: '192.168.0.23', family: 'IPv4', internal: false },
    { address: 'fe80::1', family: 'IPv6', internal: false },
  ],
  wlan0: [{ address: '10.0.0.5', family: 'IPv4', internal: false }],
} as unknown as ReturnType<typeof networkInterfaces>;

test.each([
  ['0.0.0.0', ['http://192.168.0.23:4747', 'http://10.0.0.5:4747']],
  ['::', ['http://192.168.0.23:4747', 'http://10.0.0.5:4747']],
  ['127.0.0.1', []],
  ['192.168.0.23', []],
])('listening on %s, the phone addresses are %j (non-internal IPv4 only)', (host, expected) => {
  expect(lanUrls(host, 4747, 'http', FAKE)).toEqual(expected);
});

test('a sandbox listening on 0.0.0.0 names the first LAN address in the console header; on loopback it names none', async () => {
  const loopback = await createSandbox({ log: () => {} });
  open.push(loopback);
  await loopback.listen({ port: 0, host: '127.0.0.1' });
  expect(loopback.deps.settings.lanUrls).toEqual([]);
  expect(await (await fetch(`${loopback.url}/`)).text()).not.toContain('id="phone-url"');

  const all = await createSandbox({ log: () => {} });
  open.push(all);
  const url = await all.listen({ port: 0, host: '0.0.0.0' });
  const expected = lanUrls('0.0.0.0', Number(new URL(url).port));
  expect(all.deps.settings.lanUrls).toEqual(expected);
  const page = await (await fetch(`http://127.0.0.1:${new URL(url).port}/pay`)).text();
  if (expected.length) expect(page).toContain(`href="${expected[0]}"`);
  else expect(page, 'this machine has no LAN address: nothing to name').not.toContain('id="phone-url"');
});

// The banner's addresses (src/cli-main.ts): in the image (SANDBOX_CONTAINER=1) on every interface, what reaches the
// container, never 0.0.0.0; elsewhere the listener's own. One warning at most, saying who can read the secrets.
const reach = (host: string, container: boolean, adminToken = false) =>
  reachOf(`http://${host === '::' ? '[::]' : host}:4747`, { host, loopback: host === '127.0.0.1', container, adminToken, hostname: 'c0ffee', interfaces: FAKE });

test.each([
  ['0.0.0.0', true, 'http://localhost:4747', ['http://c0ffee:4747', 'http://192.168.0.23:4747'], /this container's port .*SANDBOX_ADMIN_TOKEN=/],
  ['::', true, 'http://localhost:4747', ['http://c0ffee:4747'], /this container's port/],
  ['127.0.0.1', true, 'http://127.0.0.1:4747', [], undefined],
  ['0.0.0.0', false, 'http://0.0.0.0:4747', [], /listening on 0\.0\.0\.0 with no admin token: anyone on the network/],
  ['127.0.0.1', false, 'http://127.0.0.1:4747', [], undefined],
])('listening on %s (container %s), the banner shows %s, names %j, and warns %s', (host, container, base, named, warning) => {
  const r = reach(host, container);
  expect(r.base).toBe(base);
  for (const url of named) expect(r.lines.join('\n')).toContain(url);
  if (container && host !== '127.0.0.1') expect(r.lines.join('\n')).not.toContain('0.0.0.0');
  if (warning) expect(r.warning).toMatch(warning);
  else expect(r.warning).toBeUndefined();
});

test('with an admin token, the container banner warns of nothing', () => {
  expect(reach('0.0.0.0', true, true).warning).toBeUndefined();
});
