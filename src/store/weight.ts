// What a stored record weighs against the sandbox's byte budget (sandbox.md 6.1 and 11, docs/data.md). A cheap estimate,
// a function of the record alone so that what a write adds is what its deletion later releases: every stored
// transaction weighs BYTES_PER_RECORD, and an entry of any keyed collection (a transaction, a cob, a static QR) adds
// what its free-form client fields take, `metadata` and `infoAdicionais`, at COPY_WEIGHT per byte of their JSON.
// Every other client text is bounded small (255 characters and less) and counted in BYTES_PER_RECORD.

/**
 * Heap a stored transaction is reckoned to take with what comes with it. Measured (bench/results/storage.md): about 930 B
 * of RSS per charge made through POST /v2/pix and left pending; a paid one adds ledger lines, events and deliveries.
 */
export const BYTES_PER_RECORD = 2048;

/**
 * Heap reckoned per byte of a record's free-form fields' JSON: the parsed object kept in the record, and the copies in
 * the event bodies a payment or an expiry writes (measured by bench/budget.mjs: docs/benchmarks.md).
 */
export const COPY_WEIGHT = 3;

/** The fields of an entry whose size the client chooses (bounded by the faces, docs/reference.md): weighed by their JSON. */
export const WEIGHED_FIELDS: ReadonlySet<string> = new Set(['metadata', 'infoAdicionais']);

/** What one weighed field adds. */
export function fieldWeight(value: unknown): number {
  if (value === undefined || value === null) return 0;
  return COPY_WEIGHT * (typeof value === 'string' ? value.length : (JSON.stringify(value)?.length ?? 0));
}

/** What an entry of the keyed collection `collection` weighs. */
export function entryWeight(collection: string, entry: unknown): number {
  if (entry === null || typeof entry !== 'object') return 0;
  const e = entry as Record<string, unknown>;
  let w = collection === 'transactions' ? BYTES_PER_RECORD : 0;
  if (e.metadata !== undefined) w += fieldWeight(e.metadata);
  if (e.infoAdicionais !== undefined) w += fieldWeight(e.infoAdicionais);
  return w;
}
