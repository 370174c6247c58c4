// Running the built CLI (dist/cli.js, built by `npm test` before vitest) as a child process, and plain HTTP calls
// against a real port. Waiting for the banner line is bounded; nothing here sleeps.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const BANNER = /pix-sandbox listening on (https?:\/\/\S+:(\d+))\n/;
const WAIT_MS = 15_000;

/** The parent's environment without the variables the CLI reads, so a developer's shell cannot change the test. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (k !== 'PORT' && k !== 'HOST' && !k.startsWith('SANDBOX_')) env[k] = v;
  return { ...env, ...extra };
}

function assertBuilt() {
  if (!existsSync(CLI)) throw new Error(`${CLI} does not exist: build it with 'node scripts/build.mjs' (npm test does this before vitest)`);
}

export interface RunningCli {
  url: string;
  port: number;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then the exit code once it has exited (SIGKILL after the start's wait). */
  stop(): Promise<number | null>;
}

const started = new Set<ChildProcess>();

/** Kills (SIGKILL) every child these helpers started that is still running; for afterEach. */
export function killLeftovers() {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started.clear();
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Starts the CLI and resolves once it has printed its banner (within `waitMs`). */
export async function startCli(args: string[], env: Record<string, string> = {}, waitMs = WAIT_MS): Promise<RunningCli> {
  assertBuilt();
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => (err += d));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no banner within ${waitMs} ms.\nstdout: ${out}\nstderr: ${err}`));
    }, waitMs);
    child.stdout!.on('data', (d: string) => {
      out += d;
      const m = BANNER.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the CLI exited (${code}) before its banner.\nstdout: ${out}\nstderr: ${err}`));
    });
  });
  return {
    url: match[1]!,
    port: Number(match[2]),
    stdout: () => out,
    stderr: () => err,
    async stop() {
      const done = exited(child);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), waitMs);
      const code = await done;
      clearTimeout(timer);
      started.delete(child);
      return code;
    },
  };
}

/** Starts the CLI and sends SIGTERM in the same tick its banner line arrives; resolves with the exit code. */
export function stopAtBanner(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  assertBuilt();
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    output += d;
    if (BANNER.test(output)) child.kill('SIGTERM');
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), WAIT_MS);
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      started.delete(child);
      resolve({ code, signal, output });
    }),
  );
}

/** Runs the CLI to its end (for --help and start-up failures). */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  assertBuilt();
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), WAIT_MS);
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  clearTimeout(timer);
  started.delete(child);
  return { code, stdout, stderr };
}

export interface HttpResponse<T = any> {
  status: number;
  body: T;
  text: string;
}

/** One JSON call over a real socket. */
export async function http<T = any>(base: string, method: string, path: string, opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {}): Promise<HttpResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(`${base}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* keep the text */
  }
  return { status: res.status, body: body as T, text };
}

/** A fresh temporary directory; `cleanup()` removes it. */
export function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-test-'));
  return { dir, file: (name: string) => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A free TCP port on 127.0.0.1 (closed again, for a process that must be told its port). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface WatchedProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `re` on stdout (bounded; rejects if the process exits first). */
  waitFor(re: RegExp): Promise<RegExpExecArray>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Runs `node <args>` with only PATH and `env` in its environment (no SANDBOX_* of the developer's shell), watching its
 * output; killLeftovers() kills it if a test forgets.
 */
export function spawnNode(args: string[], env: Record<string, string> = {}): WatchedProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitFor: (re) =>
      new Promise((resolve, reject) => {
        const done = (fail?: Error) => {
          clearTimeout(timer);
          child.stdout!.off('data', check);
          child.off('exit', exit);
          const m = re.exec(out);
          if (m) resolve(m);
          else reject(fail);
        };
        const check = () => re.test(out) && done();
        const exit = (code: number | null) => done(new Error(`exited (${code}) before ${re}.\nstdout: ${out}\nstderr: ${err}`));
        const timer = setTimeout(() => done(new Error(`no ${re} within ${WAIT_MS} ms.\nstdout: ${out}\nstderr: ${err}`)), WAIT_MS);
        child.stdout!.on('data', check);
        child.once('exit', exit);
        check();
      }),
    stop: () => {
      const done = exited(child);
      child.kill('SIGTERM');
      return done.finally(() => started.delete(child));
    },
  };
}
