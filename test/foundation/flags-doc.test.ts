// `pix-sandbox --help` and the table of docs/configuration.md list the same flags and the same environment variables,
// and every flag either names is one the CLI's parser knows.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readCliConfig } from '../../src/config';

const root = resolve(import.meta.dirname, '../..');

function helpText(): string {
  const out = readCliConfig(['--help'], {});
  if (!('help' in out)) throw new Error(`--help gave no help text: ${JSON.stringify(out)}`);
  return out.help;
}

/** Flags (`--name`, `-x`) in a piece of text; metavariables are upper case, so they are left out. */
const flagsIn = (text: string) => [...text.matchAll(/(?<![\w-])--?[a-z][a-z-]*/g)].map((m) => m[0]);
const variablesIn = (text: string) => [...text.matchAll(/\b(?:SANDBOX_[A-Z_]+|PIX_SANDBOX_HOME|HOST|PORT)\b/g)].map((m) => m[0]);
const sorted = (list: string[]) => [...new Set(list)].sort();

/** The option lines of --help: each starts with two spaces and a dash; the flag column ends at a run of spaces. */
function helpFlags(help: string): string[] {
  return sorted(help.split('\n').flatMap((line) => (/^ {2}-/.test(line) ? flagsIn(line.trim().split(/\s{2,}/)[0] ?? '') : [])));
}

/** The rows of the first table under `## Configuration`: [flag cell, variable cell]. */
function configurationRows(): Array<[string, string]> {
  const page = readFileSync(join(root, 'docs/configuration.md'), 'utf8');
  const section = page.slice(page.indexOf('\n## Configuration\n'));
  const table = section.slice(section.indexOf('\n|')).split('\n\n')[0] ?? '';
  return table
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .slice(2)
    .map((row) => row.split(/(?<!\\)\|/).slice(1, 3).map((c) => c.trim()) as [string, string]);
}

describe('--help and docs/configuration.md', () => {
  test('list the same flags', () => {
    const documented = sorted(configurationRows().flatMap(([flag]) => flagsIn(flag)));
    expect(documented.length).toBeGreaterThan(15);
    expect(documented, `docs/configuration.md lists ${documented.join(' ')}\n--help lists ${helpFlags(helpText()).join(' ')}`).toEqual(helpFlags(helpText()));
  });

  test('list the same environment variables', () => {
    const documented = sorted(configurationRows().flatMap(([, variable]) => variablesIn(variable)));
    expect(documented).toContain('SANDBOX_READY_JSON');
    expect(documented).toEqual(sorted(variablesIn(helpText())));
  });

  test('both name the ca command', () => {
    expect(helpText()).toMatch(/^ +pix-sandbox ca +/m);
    expect(configurationRows().map(([flag]) => flag)).toContain('`pix-sandbox ca`');
  });

  test.each(helpFlags(helpText()))('the parser knows %s', (flag) => {
    const out = readCliConfig([flag], {});
    // A flag that takes a value, given none, is refused for that reason, never as an unknown option.
    if ('error' in out) expect(out.error).not.toMatch(/Unknown option/i);
  });
});
