// The /openapi.json of a fresh sandbox, and the operations in it, for the contract tests of this folder.
import ts from 'typescript';
import { expect } from 'vitest';
import { startHarness } from '../helpers/harness';

export type Json = Record<string, any>;
export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  op: Json;
}

export async function openApiDocument(): Promise<Json> {
  const h = await startHarness();
  const res = await h.api('GET', '/openapi.json');
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  await h.sb.close();
  return res.body as Json;
}

export const operationsOf = (doc: Json): Operation[] =>
  Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] as Json })));

/** `#/components/schemas/X` -> the schema X. */
export const resolve = (doc: Json, schema: Json): Json => (schema.$ref ? doc.components.schemas[String(schema.$ref).split('/').pop()!] : schema);

/** The type errors of compiling `file` (and what it imports) with `options`, each as 'file.ts:line message'. */
export function typeErrors(file: string, options: ts.CompilerOptions): string[] {
  return ts.getPreEmitDiagnostics(ts.createProgram([file], options)).map((d) => {
    const where = d.file ? `${d.file.fileName.split('/').pop()}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}
