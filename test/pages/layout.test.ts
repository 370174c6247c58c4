// The shared frame of the pages (src/pages/layout.tsx, hono/jsx): what every page must carry.
import { expect, test } from 'vitest';
import { jsx } from 'hono/jsx';
import { Layout } from '../../src/pages/layout';

const render = (props: Parameters<typeof Layout>[0]) => String(jsx(Layout, props as any));

test('a page has a language, a viewport, the one stylesheet, the shared script and the nav with the current page marked', () => {
  const html = render({ title: 'Console', active: 'console', scripts: ['/assets/console.js'], children: 'hello <b>' });
  expect(html).toContain('<html lang="en">');
  expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
  expect(html).toContain('<link rel="stylesheet" href="/assets/site.css"/>');
  expect(html).toMatch(/<script src="\/assets\/sandbox.js" defer=""><\/script><script src="\/assets\/console.js" defer=""><\/script>/);
  expect(html).toContain('<a href="/" aria-current="page">Console</a>');
  expect(html).toContain('<a href="/pay">Pay</a>');
  expect(html).toContain('<a href="/docs">API docs</a>');
  expect(html).toContain('hello &lt;b&gt;'); // children are escaped
  expect(html).not.toContain('token-form');
});

test('with an admin token required, the page carries the token form, hidden until the script finds no token', () => {
  const html = render({ title: 'Console', needsToken: true });
  expect(html).toContain('data-needs-token="true"');
  expect(html).toMatch(/<form id="token-form"[^>]*hidden/);
});
