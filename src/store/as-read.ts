// What the read of a data file learns of its collections as their entries go by (./disk.ts), so that the start does not
// list them again. A collection V8 keeps as a dictionary is slow to list (its keys are sorted into the order they were
// added, then each is looked up in a table no cache holds): at 3M stored charges the start listed each account's
// transactions twice after the read, for its shape check and for its count, about 7 s of a 50 s start. Each entry is
// seen here while it is new: a few field reads, and one look-up of its key (a key met twice must be caught), about a
// half of what the two listings took (and the key's slot is then in the cache for the insert that follows).
import { stateChecks } from './checks';
import { KEYED_COLLECTIONS, type Tally, tallyEntry } from './unit';

export class AsRead {
  /** What each keyed collection of an account holds (./unit.ts tallyOf); null once it must be counted again. */
  private readonly tallies = new Map<object, Tally | null>();
  /** Collections checked entry by entry as read (./schema.ts entryCheck): whether every entry passed. */
  private readonly passed = new Map<object, boolean>();

  /** Notes one entry of the collection at `path` (before it is put there under `key`). */
  entry(path: readonly string[], key: string, value: unknown, collection: object): void {
    const name = path.length === 3 && path[0] === 'accounts' ? path[2]! : path.length === 1 ? path[0]! : '';
    // A key met twice replaces its first value (as JSON.parse does): such a collection is counted and checked again.
    const again = !Array.isArray(collection) && Object.hasOwn(collection, key);
    const check = stateChecks().entryCheck(name);
    if (check && this.passed.get(collection) !== false) this.passed.set(collection, !again && check(value));
    if (path.length !== 3 || !KEYED_COLLECTIONS.has(name)) return;
    let tally = this.tallies.get(collection);
    if (tally === undefined) this.tallies.set(collection, (tally = { records: 0, bytes: 0 }));
    if (again) this.tallies.set(collection, null);
    else if (tally) tallyEntry(tally, name, value, 1);
  }

  /** What the keyed collection `collection` holds, as read; undefined when it was not read so or has changed since. */
  readonly tally = (collection: object): Tally | undefined => this.tallies.get(collection) ?? undefined;

  /** Whether every entry of `collection` passed its shape check as read (so the state's check need not list it). */
  readonly checked = (collection: object): boolean => this.passed.get(collection) === true;

  /** A journal line wrote inside `collection` after the read: what it holds is counted again. */
  changed(collection: unknown): void {
    if (collection !== null && typeof collection === 'object') this.tallies.delete(collection);
  }
}
