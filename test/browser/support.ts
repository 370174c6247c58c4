// Browser tests: Chromium driven by playwright-core (never a browser download: the system's Chromium, from
// CHROMIUM_PATH or /usr/bin/chromium), a sandbox in process on a real port, and axe-core injected into the page.
// Without a Chromium the browser test files skip and say why, unless CHROMIUM_REQUIRED=1 (CI), where they fail.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/app';
import type { SandboxOptions } from '../../src/config';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => Boolean(p));
export const chromiumPath: string | undefined = candidates.find((p) => existsSync(p));
const required = process.env.CHROMIUM_REQUIRED === '1';

/** True when the browser tests cannot run here (and may skip); logs the reason once per file. */
export function noBrowser(file: string): boolean {
  if (chromiumPath) return false;
  const why = `no Chromium at ${candidates.join(' or ')} (set CHROMIUM_PATH)`;
  if (required) throw new Error(`CHROMIUM_REQUIRED=1 but ${why}: install it (apt-get install chromium) or unset CHROMIUM_REQUIRED.`);
  console.log(`[browser tests] skipping ${file}: ${why}.`);
  return true;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface BrowserRig {
  browser: Browser;
  close(): Promise<void>;
}

/** Launches Chromium. playwright gives every launch a fresh temporary profile (--user-data-dir) and removes it on close. */
export async function launchBrowser(): Promise<BrowserRig> {
  const browser = await chromium.launch({ executablePath: chromiumPath!, args: CHROMIUM_ARGS });
  return { browser, close: () => browser.close() };
}

/**
 * One Chromium for a test file (launched before its tests, closed after) and a list of things each test opened
 * (contexts...) that are closed after it: `const b = browserForFile(); ... b.rig.browser; b.closers.push(...)`.
 */
export function browserForFile(): { rig: BrowserRig; closers: Array<() => Promise<unknown>> } {
  const state = { rig: undefined as unknown as BrowserRig, closers: [] as Array<() => Promise<unknown>> };
  beforeAll(async () => {
    state.rig = await launchBrowser();
  });
  afterAll(async () => {
    await state.rig?.close();
  });
  afterEach(async () => {
    for (const close of state.closers.splice(0)) await close();
  });
  return state;
}

export interface Site {
  sb: Sandbox;
  url: string;
  close(): Promise<void>;
}

/** A sandbox listening on a free port of 127.0.0.1, its clock frozen at a known instant unless told otherwise. */
export async function startSite(options: SandboxOptions = {}): Promise<Site> {
  const sb = await createSandbox({ log: () => {}, clockStart: '2026-03-10T12:00:00.000Z', freezeClock: true, ...options });
  const url = await sb.listen({ port: 0, host: '127.0.0.1' });
  return { sb, url, close: () => sb.close() };
}

/** A page of a fresh context at a viewport width (390 phone, 1366 laptop). */
export async function openPage(browser: Browser, width: number, height = 900): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  return { context, page };
}

/**
 * A page of a fresh context (closed after the test) at `size`, in São Paulo time, on `url` once it follows the live
 * stream; `projector` turns the console's projector mode on before the page loads.
 */
export async function openLivePage(b: ReturnType<typeof browserForFile>, url: string, size: { width: number; height: number }, opts: { projector?: boolean } = {}): Promise<Page> {
  const context = await b.rig.browser.newContext({ viewport: size, timezoneId: 'America/Sao_Paulo' });
  b.closers.push(() => context.close());
  if (opts.projector) await context.addInitScript(() => (globalThis as any).localStorage.setItem('pix-sandbox-projector', '1'));
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('body[data-live="true"]');
  return page;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

const axeSource = () => readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page; returns the critical and serious violations, or with `impacts: 'all'` every one (empty when the page is clean). */
export async function axe(page: Page, impacts: 'serious' | 'all' = 'serious'): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, not added as an inline <script>: the pages' CSP refuses inline scripts.
  await page.evaluate(axeSource());
  // The callback runs in the page; this project compiles without the DOM library, hence the `any` of globalThis.
  const result: AxeViolation[] = await page.evaluate(async () => {
    const w = globalThis as any;
    const r = await w.axe.run(w.document, { resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n: any) => JSON.stringify(n.target)) }));
  });
  return impacts === 'all' ? result : result.filter((v) => v.impact === 'critical' || v.impact === 'serious');
}

/**
 * Saves a screenshot of `page` as NAME.png in the directory SCREENSHOTS names (made if missing), to look at by hand;
 * nothing without it. `fullPage`: the whole page, not only the viewport.
 */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  const dir = process.env.SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage });
}

/** True when the page scrolls sideways (content wider than the viewport). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return root.scrollWidth > root.clientWidth + 1;
  });
}
