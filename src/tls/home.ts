// Where the local CA lives. Its own module (no certificate code) so the CLI can name it without loading pkijs.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** PIX_SANDBOX_HOME, else ~/.pix-sandbox. */
export function sandboxHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.PIX_SANDBOX_HOME || join(homedir(), '.pix-sandbox'));
}
