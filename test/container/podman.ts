// Podman for the container test, as this machine needs it: runtime runc, a containers.conf without default ulimits
// and with the cgroupfs manager, host networking. No image registry is reachable, so standInBase() makes the Node
// base image from this machine's own node, npm, sh and coreutils (podman import), trusting the CA bundle npm trusts.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const PODMAN_FLAGS = ['--runtime', 'runc'];

/** Writes the containers.conf podman needs here into `dir`; returns the environment that points podman at it. */
export function podmanEnv(dir: string): NodeJS.ProcessEnv {
  const conf = join(dir, 'containers.conf');
  writeFileSync(conf, '[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\n');
  return { ...process.env, CONTAINERS_CONF: conf };
}

/** Runs podman; resolves with its stdout, rejects with its stderr. */
export function podman(env: NodeJS.ProcessEnv, args: string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('podman', args, { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`podman ${args.join(' ')} failed: ${err.message}\n${stderr}\n${stdout}`)) : resolve(stdout),
    );
  });
}

const COREUTILS = ['env', 'mkdir', 'chown', 'chmod', 'cp', 'mv', 'rm', 'ls', 'cat', 'ln', 'id', 'true', 'false', 'test', 'echo', 'touch', 'dirname', 'basename', 'head', 'tail'];

/** Every shared library a binary loads (ldd), including the loader. */
function librariesOf(binary: string): string[] {
  const out = execFileSync('ldd', [binary], { encoding: 'utf8' });
  return [...out.matchAll(/(?:=>\s*)?(\/\S+)\s+\(0x/g)].map((m) => m[1]!);
}

/** Copies a host file to the same path under root, following symlinks (the copy is the real file). */
function copyIn(root: string, path: string) {
  const to = join(root, path);
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(path, to);
  chmodSync(to, lstatSync(path).mode & 0o7777 || 0o755);
}

/** Where a command is on this machine's PATH, and the real file behind it. */
function locate(command: string): { path: string; real: string } {
  const path = (process.env.PATH ?? '/usr/bin:/bin').split(':').map((d) => join(d, command)).find((p) => existsSync(p));
  if (!path) throw new Error(`the stand-in base needs ${command}, which is not on PATH`);
  return { path, real: realpathSync(path) };
}

/**
 * Builds the stand-in base image `tag` from this machine: node, npm (trusting the CA file `npm config get cafile`
 * names), /bin/sh and a few coreutils with their libraries, each at its host path, and the users root and node (1000)
 * the official image has.
 */
export async function standInBase(env: NodeJS.ProcessEnv, dir: string, tag: string): Promise<void> {
  const root = join(dir, 'rootfs');
  mkdirSync(root, { recursive: true });
  // The host's merged-/usr links (bin -> usr/bin ...), so the loader and libraries are where binaries look for them.
  for (const link of ['bin', 'lib', 'lib64', 'sbin']) {
    if (!existsSync(`/${link}`) || !lstatSync(`/${link}`).isSymbolicLink()) continue;
    const target = readlinkSync(`/${link}`);
    mkdirSync(join(root, target.startsWith('/') ? target : link === target ? link : join(dirname(`/${link}`), target)), { recursive: true });
    symlinkSync(target, join(root, link));
  }
  const node = realpathSync(process.execPath);
  const commands = ['sh', 'npm', 'npx', ...COREUTILS].map(locate);
  for (const file of new Set([node, ...commands.filter((c) => !c.real.endsWith('.js')).flatMap((c) => [c.real, ...librariesOf(c.real)]), ...librariesOf(node)])) copyIn(root, file);
  const npmDir = dirname(dirname(locate('npm').real)); // .../node_modules/npm
  cpSync(npmDir, join(root, npmDir), { recursive: true });
  for (const c of commands) if (c.path !== c.real && !existsSync(join(root, c.path))) {
    mkdirSync(dirname(join(root, c.path)), { recursive: true });
    symlinkSync(c.real, join(root, c.path));
  }
  const imageEnv = [`PATH=/usr/local/bin:${dirname(node)}:/usr/bin:/bin`];
  const cafile = execFileSync('npm', ['config', 'get', 'cafile'], { encoding: 'utf8' }).trim();
  if (cafile && cafile !== 'null' && existsSync(cafile)) {
    copyIn(root, cafile);
    // npm's global config file is <prefix>/etc/npmrc, the prefix being the directory above node's.
    mkdirSync(join(root, dirname(dirname(node)), 'etc'), { recursive: true });
    writeFileSync(join(root, dirname(dirname(node)), 'etc/npmrc'), `cafile=${cafile}\n`);
    imageEnv.push(`NODE_EXTRA_CA_CERTS=${cafile}`);
  }
  mkdirSync(join(root, 'etc'), { recursive: true });
  writeFileSync(join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n');
  writeFileSync(join(root, 'etc/group'), 'root:x:0:\nnode:x:1000:\n');
  for (const d of ['tmp', 'root', 'home/node']) mkdirSync(join(root, d), { recursive: true });
  chmodSync(join(root, 'tmp'), 0o1777);
  chownSync(join(root, 'home/node'), 1000, 1000);
  const tar = join(dir, 'rootfs.tar');
  execFileSync('tar', ['-C', root, '-cf', tar, '.']);
  await podman(env, ['import', ...imageEnv.flatMap((e) => ['--change', `ENV ${e}`]), '--change', 'CMD ["node"]', tar, tag]);
}
