// Spawning what a bench measures, waiting for its first answer and stopping it (bench/run.mjs, bench/ab.mjs), and
// building another commit to compare with (bench/ab.mjs, bench/fold.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const ROOT = new URL('..', import.meta.url).pathname;

export function start(cmd, args, env = {}) {
  // detached: its own process group, so stopping `npm start` also stops the server npm spawned.
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.resume();
  child.stderr.resume();
  return child;
}

export async function waitUntilAnswering(url, child, t0) {
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return performance.now() - t0;
    } catch {
      /* not listening yet */
    }
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before answering ${url}`);
    await delay(1);
  }
}

export async function stop(child) {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGTERM');
  await done;
  await delay(50); // let the port go
}

/** User + system CPU time of a process so far, in ms (Linux /proc, clock ticks of 10 ms): less swayed by other load than wall time. */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * Nanoseconds a process has run on a CPU so far, every thread of it (Linux /proc schedstat; NaN elsewhere): precise
 * where cpuMs counts 10 ms ticks, for rounds of a second.
 */
export function runNs(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce((sum, task) => {
      try {
        return sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        return sum; // a thread that ended between the listing and the read
      }
    }, 0);
  } catch {
    return NaN;
  }
}

/**
 * Exports commit `ref` with `git archive` into a temp directory outside the repository and builds it there with this
 * checkout's node_modules; returns the directory (the caller removes it). This checkout must be built too.
 */
export function buildRef(ref) {
  const dir = mkdtempSync(join(tmpdir(), 'pix-ab-'));
  execFileSync('sh', ['-c', `git archive ${ref} | tar -x -C ${dir}`], { cwd: ROOT });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: 'inherit' });
  if (!existsSync(join(ROOT, 'dist/cli.js'))) throw new Error('build this checkout first (node scripts/build.mjs)');
  return dir;
}
