// README.md and every page of docs/ run as written: scripts/check-readme.mjs pastes a page's ```sh blocks, in order,
// into one shell against a fresh sandbox of its own (dist/, built by `npm test` before vitest), and checks every link
// between the pages. Needs bash, curl, jq and openssl, as the pages' reader does.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const script = join(root, 'scripts/check-readme.mjs');

function check(page?: string): Promise<{ code: number; out: string }> {
  return new Promise((ok) => {
    execFile(process.execPath, page ? [script, page] : [script], { cwd: root, timeout: 90_000 }, (err, stdout, stderr) => {
      ok({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr });
    });
  });
}

// The pages a reader reads, as the checker finds them when given none: README.md, then docs/*.md.
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

describe('every page', () => {
  test.each(pages)('%s: every runnable block works when pasted in order from a fresh start, every link resolves', { timeout: 90_000 }, async (page) => {
    const { code, out } = await check(join(root, page));
    expect(out).toContain(`${page} check passed: `);
    expect(code, out).toBe(0);
  });
});

describe('the README checker catches a block that does not work', () => {
  const dir = mkdtempSync(join(tmpdir(), 'readme-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const B = 'B=http://127.0.0.1:4747';
  writeFileSync(join(dir, 'other.md'), '# Other\n\n## The clock\n');

  test.each([
    ['a command exits non-zero', `\`\`\`sh\n${B}\nfalse\n\`\`\``, /FAIL [^:]+\.md:1: a command exited with 1/],
    ['a curl gets an HTTP error in a plain block', `\`\`\`sh\n${B}\ncurl -s -X POST $B/_sandbox/deliveries/no-such-id/replay\n\`\`\``, /FAIL [^:]+\.md:1: a curl got HTTP 404/],
    ['an errors block gets no HTTP error', `\`\`\`sh errors\n${B}\ncurl -s $B/_sandbox/clock\n\`\`\``, /FAIL [^:]+\.md:1: marked `sh errors` but no curl got an HTTP error/],
    ['a variable is never set', `\`\`\`sh\n${B}\ncurl -s $B/v2/transactions/$NOT_SET\n\`\`\``, /FAIL [^:]+\.md:1: a command exited/],
    ['an unknown flag', `\`\`\`sh maybe\ntrue\n\`\`\``, /unknown flag "maybe"/],
    ['a shown output does not come', `\`\`\`sh\n${B}\ncurl -s -X POST $B/_sandbox/reset\n# {"reset":false,...}\n\`\`\``, /FAIL [^:]+\.md:1: it shows the output \{"reset":false,...\}, but no line/],
    ['a table row with a bare | in a cell', '| call | body |\n|---|---|\n| `PATCH` | `{status: up|down}` |', /FAIL [^:]+\.md:3: this table row has 3 cells, its header 2/],
    ['a command names port 4747', `\`\`\`sh\n${B}\ncurl -s http://127.0.0.1:4747/_sandbox/clock\n\`\`\``, /FAIL [^:]+\.md:3: a command names port 4747/],
    ['a link to a heading that does not exist', '## The clock\n\nSee [the clock](#the-clock) and [faults](#faults).', /FAIL [^:]+\.md:3: link to #faults, which no heading makes/],
    ['a link to a file that does not exist', 'The contract is in [docs/nowhere.md](docs/nowhere.md).', /FAIL [^:]+\.md:1: link to docs\/nowhere\.md, which does not exist/],
    ['a link to a heading another page does not make', 'See [faults](other.md#faults).', /FAIL [^:]+\.md:1: link to other\.md#faults, which no heading of other\.md makes/],
    ['an issue number', 'Targets (issue 39): restart <= 20 s.', /FAIL [^:]+\.md:1: "issue 39" is an issue number/],
    ['an issue referred to by #', 'Fixed in #36.', /FAIL [^:]+\.md:1: "#36" is an issue number/],
    ['a run-by-run account', 'The eleventh run gave 0.947.', /FAIL [^:]+\.md:1: "eleventh run" is a run-by-run account/],
    ['a note that something stays open', 'The read row stays open.', /FAIL [^:]+\.md:1: "stays open" is a history note/],
  ])('%s', { timeout: 30_000 }, async (name, markdown, message) => {
    const file = join(dir, `${name.replaceAll(' ', '-')}.md`);
    writeFileSync(file, `${markdown}\n`);
    const { code, out } = await check(file);
    expect(out).toMatch(message);
    expect(code).toBe(1);
  });

  test('skipped and illustrative blocks are not run; errors blocks may show refusals', { timeout: 30_000 }, async () => {
    const file = join(dir, 'passing.md');
    writeFileSync(
      file,
      [
        '```sh skip', 'exit 3', '```',
        '```console', 'exit 4', '```',
        '```sh', B, 'ID=$(curl -s -X POST $B/_sandbox/reset | jq -r .reset)', 'curl -s $B/_sandbox/health', '# {"status":"ok",...,"accounts":<n>,...}   a remark', '```',
        '```sh errors', 'test "$ID" = true', 'curl -s -X POST $B/_sandbox/deliveries/no-such-id/replay', '```',
        'The clock is on [another page](other.md#the-clock).',
        '',
      ].join('\n'),
    );
    const { code, out } = await check(file);
    expect(out).toMatch(/passing\.md check passed: 2 skip, 1 run, 1 errors/);
    expect(code).toBe(0);
  });
});
