// Each account's first stored transaction, remembered. Health reads when the oldest record held was made
// (services/capacity.ts), and an account's transactions are kept in the order they were made; but finding the first key
// of a collection V8 keeps as a dictionary lists all its keys (for..in with a break still does: 3 s at 3M records), so
// the first record is noted as a data file is read (./disk.ts) and otherwise looked for once, and then again only once it
// is no longer there.

const firsts = new WeakMap<object, { key: string; record: unknown }>();

/** Notes `record` (at `key`) as the first of `transactions`. */
export function noteFirstRecord(transactions: object, key: string, record: unknown): void {
  firsts.set(transactions, { key, record });
}

/** The first record of `transactions`: the one noted while it is still there, else found (and noted). */
export function firstRecord<T>(transactions: Record<string, T>): T | undefined {
  const known = firsts.get(transactions);
  if (known && transactions[known.key] === known.record) return known.record as T;
  for (const key in transactions) {
    const record = transactions[key]!;
    firsts.set(transactions, { key, record });
    return record;
  }
  firsts.delete(transactions);
  return undefined;
}
