// Durations as people write them on a command line or in a tenant spec: `7d`, `12h`, `30m`, `90s`, `2w`, or parts of
// them together (`1d12h`). A bare number is refused: "7" could be seconds or days, and retention that guesses wrong
// deletes a team's data.
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const WHOLE = /^(?:\d+[smhdw])+$/;
const PART = /(\d+)([smhdw])/g;

/** The duration in milliseconds, or null when the text is not one (nor a positive one). */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim().toLowerCase();
  if (!WHOLE.test(trimmed)) return null;
  let ms = 0;
  for (const [, n, unit] of trimmed.matchAll(PART)) ms += Number(n) * UNIT_MS[unit!]!;
  return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
}

/** A duration as parseDuration reads it back, in whole days, hours, minutes and seconds (`7d`, `1d12h`, `90s`). */
export function formatDuration(ms: number): string {
  let rest = ms;
  let out = '';
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const n = Math.floor(rest / UNIT_MS[unit]!);
    if (n > 0) out += `${n}${unit}`;
    rest -= n * UNIT_MS[unit]!;
  }
  return out || '0s';
}

export const DURATION_HINT = 'a number with a unit (s, m, h, d or w), like 7d, 12h, 30m or 1d12h';
