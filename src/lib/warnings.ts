// A request's warnings (sandbox.md 14): what the sandbox took as the service takes it, but a client should hear of (a
// document with wrong check digits). They are recorded while a request's input is checked, synchronously, as the unit
// of work is carried (no AsyncLocalStorage: it costs every promise), and each face answers them as one
// `Sandbox-Warning` header each (wire/validate.ts, faces/api-pix/schemas.ts).

let sink: string[] | undefined;

/** Records a warning for the input being checked now (outside a check it has no request to go to, and is dropped). */
export function warn(text: string): void {
  sink?.push(text);
}

/** Runs `check`, handing the warnings it recorded to `answer` (also when it throws: a refusal still tells them). */
export function collectWarnings<T>(check: () => T, answer: (warnings: string[]) => void): T {
  const before = sink;
  const collected: string[] = [];
  sink = collected;
  try {
    return check();
  } finally {
    sink = before;
    if (collected.length) answer(collected);
  }
}
