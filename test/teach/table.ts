// The wrong requests of a face as data (sandbox.md 14), and what each answer must say: an unknown field named with
// the field meant (a Sandbox-Warning header, or under strict a 400 naming both), a wrong type named by its field, a
// wrong method a 405 with Allow, a near path a 404 naming the route meant, a credential of another face named.
import { expect } from 'vitest';
import type { ApiResponse, CallOptions } from '../helpers/harness';

export type Wrong =
  /** An unknown field; `status` is the lenient answer (the body is otherwise whole). */
  | { kind: 'typo'; method: string; path: string; body: unknown; field: string; suggestion?: string; status: number }
  | { kind: 'type'; method: string; path: string; body: unknown; field: string }
  | { kind: 'method'; method: string; path: string; allow: string }
  | { kind: 'path'; method: string; path: string; suggestion: string }
  | { kind: 'credential'; method: string; path: string; headers: Record<string, string>; status: number; says: string };

export type Call = (method: string, path: string, opts: CallOptions) => Promise<ApiResponse>;

export const label = (w: Wrong) => `${w.kind}: ${w.method} ${w.path}${'field' in w ? ` (${w.field})` : ''}`;

export const warning = (field: string, suggestion?: string) =>
  suggestion === undefined ? `unknown field "${field}"; it is ignored, as the service ignores it` : `unknown field "${field}"; did you mean "${suggestion}"?`;

/** The answer's warnings (one Sandbox-Warning header each; Headers joins repeated ones with ", "). */
export const warningsOf = (res: ApiResponse) => res.headers.get('sandbox-warning') ?? '';

/** What the service's envelope (v2, v1, control) must say of `w`; `strict`: unknown fields are refused. */
export function expectEnvelopeAnswer(w: Wrong, res: ApiResponse, strict: boolean) {
  const why = `${label(w)}: ${res.text.slice(0, 500)}`;
  switch (w.kind) {
    case 'typo':
      // Refused (strict, or lenient when the misspelt field was a required one): the refusal names it.
      if (strict || w.status === 400) {
        expect(res.status, why).toBe(400);
        expect(res.body.details.code, why).toBe('VALIDATION_ERROR');
        expect(res.body.details.fields, why).toContainEqual({ field: w.field, message: w.suggestion ? `is not a field of this request; did you mean "${w.suggestion}"?` : 'is not a field of this request; remove it' });
      }
      if (!strict) {
        expect(res.status, why).toBe(w.status);
        expect(warningsOf(res), why).toContain(warning(w.field, w.suggestion));
      }
      return;
    case 'type':
      expect(res.status, why).toBe(400);
      expect(res.body.details.fields.map((f: { field: string }) => f.field), why).toContain(w.field);
      return;
    case 'method':
      expect(res.status, why).toBe(405);
      expect(res.body.details.code, why).toBe('METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow'), why).toBe(w.allow);
      return;
    case 'path':
      expect(res.status, why).toBe(404);
      expect(res.body.details.code, why).toBe('ROUTE_NOT_FOUND');
      expect(res.body.details.suggestions, why).toContain(w.suggestion);
      expect(res.body.message, why).toContain(w.suggestion);
      return;
    case 'credential':
      expect(res.status, why).toBe(w.status);
      expect(res.body.message, why).toContain(w.says);
  }
}
