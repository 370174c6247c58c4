// Nearest names by edit distance, for errors that teach (sandbox.md 14): "did you mean expiresIn?". Optimal string
// alignment distance (Levenshtein with swaps of neighbours: documnet is one step from document), with case, `_` and
// `-` ignored first (expires_in is expiresIn), and a limit that grows with the name, so a short name is not "near"
// everything.

/** The optimal string alignment distance of `a` and `b`, or `limit + 1` as soon as it is sure to exceed `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2: number[] = [];
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

const folded = (name: string) => name.toLowerCase().replaceAll(/[_-]/g, '');

/** How far two names may be and still be "near": 1 for up to 4 characters, 2 up to 8, 3 beyond. */
export const nearLimit = (name: string) => (name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3);

/** The known names near `name`, nearest first (ties in the order given), at most `max`. */
export function nearestNames(name: string, known: Iterable<string>, max = 1): string[] {
  const mine = folded(name);
  const limit = nearLimit(mine);
  const scored: { name: string; d: number }[] = [];
  for (const k of known) {
    const d = editDistance(mine, folded(k), limit);
    if (d <= limit) scored.push({ name: k, d });
  }
  return scored
    .sort((x, y) => x.d - y.d)
    .slice(0, max)
    .map((s) => s.name);
}
