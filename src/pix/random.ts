// The one source of randomness the PIX module takes: an integer in [0, maxExclusive). The app passes
// `ids.randomInt` (crypto or seeded); tests pass a seeded or fixed function.
export type RandomInt = (maxExclusive: number) => number;

/** Draws from `random` and checks the contract, so that a broken source fails loudly instead of yielding "undefined". */
export function draw(random: RandomInt, maxExclusive: number): number {
  const n = random(maxExclusive);
  if (!Number.isInteger(n) || n < 0 || n >= maxExclusive) {
    throw new RangeError(`random(${maxExclusive}) must return an integer from 0 to ${maxExclusive - 1}, got ${n}`);
  }
  return n;
}

/** `length` characters drawn uniformly from `alphabet`. */
export function randomString(random: RandomInt, alphabet: string, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[draw(random, alphabet.length)];
  return s;
}
