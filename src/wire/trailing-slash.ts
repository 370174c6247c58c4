// One trailing slash names the same route as the path without it, on every face: the app is built with Hono's
// `strict: false`, which routes /v2/cobv/ as /v2/cobv (what PSPs' API Pix SDKs send). Where the emulated service
// names its paths without one (v1, v2), the answer says so in a Sandbox-Warning; API Pix (PSPs' servers take what
// their SDKs send) and the sandbox's own control API take it silently (docs/reference.md).
import type { Context } from 'hono';
import { warn } from '../lib/warnings';
import { checkedWithWarnings } from './request-warnings';

const WARNED = ['/v1/', '/v2/'];

/** The request's path as sent ends with a slash that routing dropped. */
function droppedSlash(c: Context): boolean {
  if (c.req.path === '/' || c.req.path.endsWith('/')) return false;
  const url = c.req.url;
  const end = url.indexOf('?');
  return (end === -1 ? url : url.slice(0, end)).endsWith('/');
}

export function noteTrailingSlash(c: Context): void {
  if (!droppedSlash(c) || !WARNED.some((prefix) => c.req.path.startsWith(prefix))) return;
  checkedWithWarnings(c, () => warn(`the path ends with '/'; answered as ${c.req.path}, but the service names its paths without a trailing slash: drop it`));
}
