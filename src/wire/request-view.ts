// The request log's entries on the wire (GET /_sandbox/requests/{id}, the lists, the console, the test kit).
import { isoTime } from '../lib/iso';
import type { LoggedBody, RequestEntry } from '../services/request-log';

/** A logged body: null when there was none; else its type and size (bytes, null when unknown) and either the JSON or why it is left out. */
export function loggedBodyView(body: LoggedBody): { contentType: string; size: number | null; body?: unknown; omitted?: string } | null {
  if (body.kind === 'none') return null;
  if (body.kind === 'json') return { contentType: body.contentType, size: body.size, body: JSON.parse(body.text) as unknown };
  return { contentType: body.contentType, size: body.size < 0 ? null : body.size, omitted: body.reason };
}

function headersOf(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) out[list[i]!] = list[i + 1]!;
  return out;
}

export function requestView(e: RequestEntry) {
  return {
    id: e.id,
    at: isoTime(e.atMs),
    wallAt: isoTime(e.wallMs),
    face: e.face,
    method: e.method,
    path: e.path,
    query: e.query,
    status: e.status,
    durationMs: e.durationMs,
    accountId: e.accountId,
    credentialId: e.credentialId,
    idempotencyKey: e.idempotencyKey,
    replayed: e.replayed,
    traceId: e.traceId,
    headers: headersOf(e.headers),
    request: loggedBodyView(e.request),
    answer: loggedBodyView(e.answer),
    ids: [...e.ids],
    warnings: [...e.warnings],
  };
}
export type RequestView = ReturnType<typeof requestView>;
