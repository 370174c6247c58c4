#!/usr/bin/env node
// `npm run readme:check`: run README.md and every page of docs/ the way a reader pastes them, each page from a fresh
// sandbox, and fail on a page's first block that does not work, or on a link to a page or heading that does not exist.
// Conventions (docs/keeping-docs-true.md):
//   ```sh                  runnable, in order, in one shell (variables carry over); every curl must get a status < 400
//   ```sh errors           runnable; shows refusals on purpose, so at least one curl must get a status >= 400
//   ```sh terminal-2       runnable in the background (the reader's second terminal) until the end
//   ```sh skip             not run (installing, starting the sandbox itself)
//   ```<lang> file=NAME    saved as NAME in the working directory before anything runs
// In a runnable block, a comment `# {...}` or `# [...]` shows an output: some line of the block's output must match it
// (`...` and `<anything>` match any text; text after two spaces is a remark).
// Any other block is illustration. The sandbox (dist/cli.js, so build first) listens on a free port: the README's
// `http://127.0.0.1:4747` becomes that address, and the receiver's port 3000 becomes another free port.
// A page without runnable blocks (docs/sandbox.md, docs/service-api.md, ...) gets the link and table checks only.
// Usage: node scripts/check-readme.mjs [--verbose] [--url URL] [page.md ...]   (no page: README.md and docs/*.md)
// --url runs against a sandbox you started yourself (freshly: a page assumes the default world and a real clock).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const urlArg = args.indexOf('--url');
const givenUrl = urlArg >= 0 ? args[urlArg + 1] : undefined;
const givenPages = args.filter((a, i) => !a.startsWith('--') && (urlArg < 0 || i !== urlArg + 1)).map((a) => resolve(a));
const TIMEOUT_MS = 120_000;

/** The pages a reader reads: README.md, then every Markdown page of docs/ by name. */
export function defaultPages() {
  const docs = join(root, 'docs');
  return [join(root, 'README.md'), ...readdirSync(docs).filter((f) => f.endsWith('.md')).sort().map((f) => join(docs, f))];
}

/** Fenced blocks of a Markdown text: info string, body, 1-based line of the opening fence. */
export function parseBlocks(markdown, label = 'README.md') {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    if (i >= lines.length) throw new Error(`${label}:${start + 1}: code block never closed`);
    const [lang = '', ...flags] = open[1].trim().split(/\s+/);
    blocks.push({ line: start + 1, lang, flags, body: body.join('\n') });
  }
  return blocks;
}

/** What the checker does with a block: 'run', 'errors', 'background', 'file' or 'skip'. */
export function modeOf(block, label = 'README.md') {
  const file = block.flags.find((f) => f.startsWith('file='));
  if (file) return { mode: 'file', name: file.slice(5) };
  if (block.lang !== 'sh') return { mode: 'skip' };
  if (block.flags.includes('skip')) return { mode: 'skip' };
  if (block.flags.includes('terminal-2')) return { mode: 'background' };
  if (block.flags.includes('errors')) return { mode: 'errors' };
  if (block.flags.length) throw new Error(`${label}:${block.line}: unknown flag "${block.flags.join(' ')}" (use errors, terminal-2 or skip)`);
  return { mode: 'run' };
}

/**
 * The outputs a block promises: comment lines `# {...}` or `# [...]` (text after two spaces is a remark). `...` and
 * `<anything>` stand for any text.
 */
export function promisedOutputs(body) {
  const promised = [];
  for (const line of body.split('\n')) {
    const m = /^# ([[{].*?)(?:\s{2,}.*)?$/.exec(line);
    if (!m) continue;
    const pattern = m[1]
      .split(/(\.\.\.|<[^>]*>)/)
      .map((piece, i) => (i % 2 ? '.*' : piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    promised.push({ text: m[1], re: new RegExp(`^${pattern}$`) });
  }
  return promised;
}

function freePort() {
  return new Promise((ok, ko) => {
    const srv = createServer();
    srv.once('error', ko);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/** Starts `node dist/cli.js --port 0`; resolves with the child and its URL once the banner says where it listens. */
function startSandbox() {
  return new Promise((ok, ko) => {
    const env = { ...process.env };
    for (const k of Object.keys(env)) if (k.startsWith('SANDBOX_') || k === 'PORT' || k === 'HOST') delete env[k];
    const child = spawn(process.execPath, [join(root, 'dist/cli.js'), '--port', '0', '--host', '127.0.0.1'], { cwd: root, env });
    let out = '';
    const timer = setTimeout(() => ko(new Error(`the sandbox did not start within 15 s:\n${out}`)), 15_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ child, url: m[1] });
      }
    });
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => ko(new Error(`the sandbox exited (${code}) before listening:\n${out}`)));
  });
}

/** Starts a background block; resolves once it printed its first line (a receiver saying where it listens). */
function startBackground(script, cwd, line, label) {
  return new Promise((ok, ko) => {
    const child = spawn('bash', ['-c', script], { cwd, detached: true });
    const output = { text: '' };
    const timer = setTimeout(() => ko(new Error(`${label}:${line}: the terminal-2 block printed nothing within 10 s`)), 10_000);
    const onData = (d) => {
      output.text += d;
      if (output.text.includes('\n')) {
        clearTimeout(timer);
        ok({ child, output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => ko(new Error(`${label}:${line}: the terminal-2 block exited (${code}):\n${output.text}`)));
  });
}

function runShell(script, cwd) {
  return new Promise((ok) => {
    const child = spawn('bash', ['-c', script], { cwd });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      ok({ code: signal ? `signal ${signal}` : code, out });
    });
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (not - or _), spaces to hyphens, repeats numbered. */
export function anchorsOf(markdown) {
  const seen = new Map();
  const anchors = new Set();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const h = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!h) continue;
    const base = h[1].trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

/** The anchors of another page, read once. */
const anchorsOfFile = new Map();
function anchorsOfPage(file) {
  if (!anchorsOfFile.has(file)) anchorsOfFile.set(file, anchorsOf(readFileSync(file, 'utf8')));
  return anchorsOfFile.get(file);
}

/**
 * Mistakes found without running anything: links to missing files, to headings no page makes (on this page or, for
 * `page.md#heading`, on that page), a table row with a bare |, a hard-coded port in a command.
 */
/**
 * Docs say what is true now; the git log keeps how it came to be. Refused in prose (code spans and blocks aside): a
 * reference to an issue ("issue 36", "#36") and an account of runs or stops ("the eleventh run", "this stop",
 * "stays open", "before this change").
 */
const HISTORY = [
  { re: /\bissues? #?\d+\b|(?<![\w&/#\]])#\d+\b/i, what: 'an issue number' },
  { re: /\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\d+(?:st|nd|rd|th)) run\b/i, what: 'a run-by-run account' },
  { re: /\bthis stop\b|\bstays? open\b|\bbefore this change\b|\bthe run before\b/i, what: 'a history note' },
];

export function staticProblems(markdown, blocks, dir, label = 'README.md') {
  const problems = [];
  const anchors = anchorsOf(markdown);
  const lines = markdown.split('\n');
  let inCode = false;
  lines.forEach((line, i) => {
    if (line.startsWith('```')) inCode = !inCode;
    if (inCode) return;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const { re, what } of HISTORY) {
      const m = re.exec(prose);
      if (m) problems.push(`${label}:${i + 1}: "${m[0]}" is ${what}: a page says what is true now (the git log keeps the history)`);
    }
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split('#');
      const file = path && join(dir, path);
      if (path && !existsSync(file)) problems.push(`${label}:${i + 1}: link to ${path}, which does not exist`);
      else if (path && anchor && !(file.endsWith('.md') && statSync(file).isFile())) problems.push(`${label}:${i + 1}: link to ${path}#${anchor}, but only a Markdown page has headings`);
      else if (path && anchor && !anchorsOfPage(file).has(anchor)) problems.push(`${label}:${i + 1}: link to ${path}#${anchor}, which no heading of ${path} makes`);
      if (!path && anchor && !anchors.has(anchor)) problems.push(`${label}:${i + 1}: link to #${anchor}, which no heading makes`);
    }
  });
  // A table row with more cells than its header: a `|` in a cell (even in code) must be written `\|`.
  let header = null;
  let fenced = false;
  lines.forEach((line, i) => {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced || !line.startsWith('|')) return void (header = null);
    const cells = line.match(/(?<!\\)\|/g).length;
    if (header === null) header = cells;
    else if (cells !== header) problems.push(`${label}:${i + 1}: this table row has ${cells - 1} cells, its header ${header - 1} (write | in a cell as \\|)`);
  });
  for (const b of blocks.filter((b) => b.mode !== 'skip' && b.mode !== 'file')) {
    b.body.split('\n').forEach((line, i) => {
      if (/:4747\b/.test(line) && !/^B=http:\/\/127\.0\.0\.1:4747\s*$/.test(line)) {
        problems.push(`${label}:${b.line + 1 + i}: a command names port 4747; use $B (only the line B=http://127.0.0.1:4747 may)`);
      }
    });
  }
  return problems;
}

/** Checks one page; true when it passes. Runs its blocks against a sandbox of its own, if it has any to run. */
async function checkPage(pagePath) {
  const label = relative(root, pagePath).startsWith('..') ? pagePath : relative(root, pagePath);
  const markdown = readFileSync(pagePath, 'utf8');
  const blocks = parseBlocks(markdown, label).map((b) => ({ ...b, ...modeOf(b, label) }));
  const problems = staticProblems(markdown, blocks, dirname(pagePath), label);
  if (problems.length) {
    process.stdout.write(`${problems.map((p) => `FAIL ${p}`).join('\n')}\n`);
    return false;
  }
  const counts = {};
  for (const b of blocks) counts[b.mode] = (counts[b.mode] ?? 0) + 1;
  const summary = Object.entries(counts).map(([m, n]) => `${n} ${m}`).join(', ') || 'no blocks';
  if (!blocks.some((b) => b.mode === 'run' || b.mode === 'errors' || b.mode === 'background')) {
    process.stdout.write(`${label} check passed: ${summary} (links only, nothing to run)\n`);
    return true;
  }
  const work = mkdtempSync(join(tmpdir(), 'readme-check-'));
  const receiverPort = await freePort();
  const { child: sandbox, url } = givenUrl ? { child: null, url: givenUrl.replace(/\/$/, '') } : await startSandbox();
  const background = [];
  const adapt = (text) =>
    text
      .replaceAll('http://127.0.0.1:4747', url)
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${receiverPort}`)
      .replaceAll('listen(3000,', `listen(${receiverPort},`);
  const started = Date.now();
  let failed = false;
  try {
    for (const b of blocks.filter((b) => b.mode === 'file')) writeFileSync(join(work, b.name), adapt(b.body) + '\n');

    // The reader opens the second terminal when the page says so; nothing there depends on the first terminal's
    // variables, so the checker starts it first and keeps it until the end.
    for (const b of blocks.filter((b) => b.mode === 'background')) background.push(await startBackground(adapt(b.body), work, b.line, label));
    const script = [
      'set -euo pipefail',
      // Every curl reports its HTTP status on stderr, after its own output.
      "curl() { command curl -w '%{stderr}\\n@@HTTP %{http_code}\\n' \"$@\"; }",
      'exec 2>&1',
      ...blocks.filter((b) => b.mode === 'run' || b.mode === 'errors').flatMap((b) => [`echo "@@BLOCK ${b.line}"`, adapt(b.body)]),
    ].join('\n');
    const results = [await runShell(script, work)];

    // Judge each block by its own part of the output.
    const out = results.map((r) => r.out).join('');
    const parts = out.split(/^@@BLOCK (\d+)\n/m);
    const seen = new Map();
    for (let i = 1; i < parts.length; i += 2) seen.set(Number(parts[i]), parts[i + 1]);
    const lastCode = results.at(-1)?.code ?? 0;
    const ran = blocks.filter((b) => b.mode === 'run' || b.mode === 'errors');
    for (const b of ran) {
      const text = seen.get(b.line);
      if (text === undefined) continue;
      const statuses = [...text.matchAll(/^@@HTTP (\d+)$/gm)].map((m) => Number(m[1]));
      const shown = text.replace(/\n?@@HTTP \d+\n/g, '\n');
      const isLast = [...seen.keys()].at(-1) === b.line;
      let problem = null;
      if (isLast && lastCode !== 0) problem = `a command exited with ${lastCode}`;
      else if (b.mode === 'run' && statuses.some((s) => s >= 400)) problem = `a curl got HTTP ${statuses.find((s) => s >= 400)} (mark the block \`sh errors\` if that is the point)`;
      else if (b.mode === 'errors' && !statuses.some((s) => s >= 400)) problem = 'marked `sh errors` but no curl got an HTTP error';
      else {
        const outLines = shown.split('\n');
        const broken = promisedOutputs(adapt(b.body)).find((p) => !outLines.some((l) => p.re.test(l)));
        if (broken) problem = `it shows the output ${broken.text}, but no line of the output matches it`;
      }
      if (verbose || problem) process.stdout.write(`--- ${label}:${b.line} (${b.mode}) HTTP ${statuses.join(' ')}\n${shown.trimEnd()}\n`);
      if (problem) {
        process.stdout.write(`FAIL ${label}:${b.line}: ${problem}\n`);
        failed = true;
        break;
      }
    }
    const notRun = ran.filter((b) => !seen.has(b.line));
    if (!failed && notRun.length) {
      process.stdout.write(`FAIL ${label}: blocks never ran (the shell stopped before them): ${notRun.map((b) => b.line).join(', ')}\n`);
      failed = true;
    }
    if (verbose) for (const bg of background) process.stdout.write(`--- terminal-2 output\n${bg.output.text.trimEnd()}\n`);
    process.stdout.write(`${label} check ${failed ? 'failed' : 'passed'}: ${summary} (${Date.now() - started} ms, sandbox ${url})\n`);
  } finally {
    for (const bg of background) {
      try {
        process.kill(-bg.child.pid, 'SIGTERM');
      } catch {}
    }
    sandbox?.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
  return !failed;
}

async function main() {
  // One page after another: each starts a sandbox of its own, and the machine may be busy with tests.
  let passed = true;
  for (const page of givenPages.length ? givenPages : defaultPages()) if (!(await checkPage(page))) passed = false;
  process.exitCode = passed ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
