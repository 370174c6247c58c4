// A request's warnings (sandbox.md 14): what the sandbox took as the service takes it, but a client should hear of (a
// document with wrong check digits). They are recorded while a request's input is checked, synchronously, as the unit
// of work is carried (no AsyncLocalStorage: it costs every promise), and each face answers them as one
// `Sandbox-Warning` header each (wire/validate.ts, faces/api-pix/schemas.ts). Every validated part of every request
// runs a check, so a check with no warning allocates nothing: the list is made at the first warning.

let collecting = false;
let collected: string[] | undefined;

/** Records a warning for the input being checked now (outside a check it has no request to go to, and is dropped). */
export function warn(text: string): void {
  if (collecting) (collected ??= []).push(text);
}

/** Runs `check`, handing the warnings it recorded to `answer` (also when it throws: a refusal still tells them). */
export function collectWarnings<T>(check: () => T, answer: (warnings: string[]) => void): T {
  const wasCollecting = collecting;
  const outer = collected;
  collecting = true;
  collected = undefined;
  try {
    return check();
  } finally {
    const mine = collected;
    collecting = wasCollecting;
    collected = outer;
    if (mine) answer(mine);
  }
}
