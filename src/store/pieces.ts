// Reading the data file in pieces (sandbox.md 6.1): no step holds the whole file as one string or one Buffer. V8 caps
// a string at 512 MiB, so a snapshot read in one piece failed from about 800,000 stored charges, a file the sandbox had
// written itself. The snapshot is read a few MiB at a time; its levels that hold collections (the top, `accounts`,
// each account, each account's fields, `jobs`) are walked here, and each entry below them (a charge, a ledger line, an
// event) is parsed on its own with JSON.parse. The result is the value JSON.parse would make of the whole file; any
// JSON layout is read (snapshots of earlier versions were one line, those of this version put one entry a line).
// Journal lines are read the same way, one line at a time.
import { closeSync, openSync, readSync } from 'node:fs';

/** Bytes read at a time. */
const CHUNK = 4 << 20;
/**
 * Bytes of whole lines parsed at once: a hundred entries or so, few enough that the text stays a young object (a
 * large one would be old at once, and make the heap grow toward its next full collection while a state is read).
 */
const BATCH = 64 << 10;

/**
 * Called with each entry of a collection as it is read (`path`: where the collection is, e.g. ['accounts', id,
 * 'transactions']), while the entry is new: what it does to the entry (strings made to share one copy) costs the garbage
 * collector nothing, where a pass over the whole state once read would rewrite a million old objects.
 */
export type EntryHook = (path: readonly string[], key: string, value: unknown, collection: object) => void;

/** Where a value's text went wrong, with its byte offset in the file. */
export class PieceError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const SPACE = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d]) SPACE[c] = 1;
/** Bytes that end a number, true, false or null. */
const SCALAR_END = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d, 0x2c, 0x5d, 0x7d]) SCALAR_END[c] = 1;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

/** A file read forward a chunk at a time. */
class Source {
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  private end = 0;
  /** File offset of buf[0]. */
  private base = 0;
  private done = false;

  constructor(
    private readonly fd: number,
    private readonly chunk = CHUNK,
  ) {}

  /** Offset in the file of the next byte. */
  get offset(): number {
    return this.base + this.pos;
  }

  /** Reads the next chunk; false at the end of the file. */
  private fill(): boolean {
    if (this.done) return false;
    this.base += this.end;
    // A fresh Buffer each time: a value spanning chunks keeps pieces of earlier ones until it is parsed.
    const buf = Buffer.allocUnsafeSlow(this.chunk);
    const n = readSync(this.fd, buf, 0, this.chunk, null);
    this.buf = buf;
    this.pos = 0;
    this.end = n;
    this.newline = -1;
    if (n === 0) this.done = true;
    return n > 0;
  }

  /** The next byte that is not white space, left in place; -1 at the end of the file. */
  peek(): number {
    for (;;) {
      const { buf, end } = this;
      let pos = this.pos;
      while (pos < end && SPACE[buf[pos]!] === 1) pos++;
      this.pos = pos;
      if (pos < end) return buf[pos]!;
      if (!this.fill()) return -1;
    }
  }

  /** Takes the next byte that is not white space, which must be `byte`. */
  take(byte: number, what: string): void {
    const c = this.peek();
    if (c !== byte) throw this.unexpected(c, what);
    this.pos++;
  }

  /** Takes `,` (true) or `close` (false) after an entry of a collection. */
  more(close: number): boolean {
    const c = this.peek();
    this.pos++;
    if (c === 0x2c) return true;
    if (c === close) return false;
    this.pos--;
    throw this.unexpected(c, `',' or '${String.fromCharCode(close)}'`);
  }

  unexpected(c: number, what: string): PieceError {
    if (c === -1) return new PieceError(`it ends at byte ${this.offset} where ${what} should follow: the file was cut short`, this.offset);
    return new PieceError(`${what} expected at byte ${this.offset}, found '${String.fromCharCode(c)}'`, this.offset);
  }

  /** Where the next newline is (at or after pos), or `end` when the chunk has none past pos: found once a chunk. */
  private newline = -1;

  /**
   * The entries of an array collection that stand whole on the lines from here (as this version writes them, one a
   * line: `value,`), parsed at once and added to `into`. First up to BATCH bytes of whole lines at a time while
   * `mode.batch` holds (it is dropped for the rest of the collection when such a batch does not parse, as the last one
   * before the collection's end does), else one line. Returns false, having taken nothing, when the rest of the line is
   * not such entries (another layout, the last entry before the collection's end, a line that runs past this chunk):
   * the caller reads the entry byte by byte.
   */
  wholeLines(into: unknown[], mode: { batch: boolean }, path: readonly string[], hook?: EntryHook): boolean {
    const { buf, end, pos } = this;
    if (mode.batch) {
      const cut = buf.lastIndexOf(NEWLINE, Math.min(end - 1, pos + BATCH));
      if (cut > pos && this.parseLines(into, cut, path, hook)) return true;
      mode.batch = false;
    }
    if (this.newline <= pos) {
      const nl = buf.indexOf(NEWLINE, pos);
      this.newline = nl >= 0 && nl < end ? nl : end;
    }
    return this.newline < end && this.parseLines(into, this.newline, path, hook);
  }

  /** Parses the entries from pos to the newline at `nl` as the members of one array; false if they are not. */
  private parseLines(into: unknown[], nl: number, path: readonly string[], hook?: EntryHook): boolean {
    const { buf, pos } = this;
    let last = nl;
    while (last > pos && SPACE[buf[last - 1]!] === 1) last--;
    if (last > pos && buf[last - 1] === 0x2c) last--;
    if (last === pos || pos === 0) return false;
    // The byte before the entries (a comma or white space) and the one after them (the same) are the brackets for a
    // moment: the text is made once, not once and again with the brackets around it.
    const before = buf[pos - 1]!;
    const after = buf[last]!;
    buf[pos - 1] = 0x5b;
    buf[last] = 0x5d;
    const text = buf.toString('utf8', pos - 1, last + 1);
    buf[pos - 1] = before;
    buf[last] = after;
    let parsed: unknown[];
    try {
      parsed = JSON.parse(text) as unknown[];
    } catch {
      return false;
    }
    // The lines end the entries they hold (before a comma, or white space before the next byte): the caller reads on.
    this.pos = last;
    for (const value of parsed) {
      hook?.(path, String(into.length), value, into);
      into.push(value);
    }
    return true;
  }

  /**
   * The members of an object collection that stand one a line from here (`"key":value,`, as this version writes
   * them), up to the last newline of this chunk: each line's key and value are read on their own and added to `into`.
   * Stops before the first line that is not such a member (another layout, the collection's end, a value that does not
   * parse alone), where the caller reads on byte by byte; false when it took nothing. A line is taken only when its
   * value parses whole, so what is taken is what JSON.parse would make of those members. Members are not parsed many
   * to one object: JSON.parse gives such an object a hidden class for each new key, and V8 keeps a growing list of
   * them until its next full collection, which made a million charges take twice their time.
   */
  wholeMembers(into: Record<string, unknown>, path: readonly string[], hook?: EntryHook): boolean {
    const { buf, end } = this;
    const stop = buf.lastIndexOf(NEWLINE, end - 1);
    let pos = this.pos;
    let taken = false;
    while (pos < stop && buf[pos] === QUOTE) {
      const keyEnd = closingQuote(buf, pos + 1, stop);
      if (keyEnd < 0) break;
      let colon = keyEnd + 1;
      while (SPACE[buf[colon]!] === 1) colon++;
      if (buf[colon] !== 0x3a) break;
      const nl = buf.indexOf(NEWLINE, colon);
      if (nl < 0 || nl > stop) break;
      let last = nl;
      while (SPACE[buf[last - 1]!] === 1) last--;
      const comma = buf[last - 1] === 0x2c;
      if (comma) last--;
      let key: string;
      let value: unknown;
      try {
        value = JSON.parse(buf.toString('utf8', colon + 1, last));
        key = plainKey(buf, pos + 1, keyEnd) ? buf.toString('utf8', pos + 1, keyEnd) : (JSON.parse(buf.toString('utf8', pos, keyEnd + 1)) as string);
      } catch {
        break;
      }
      hook?.(path, key, value, into);
      put(into, key, value);
      taken = true;
      // The last member taken ends before its comma (the caller takes it, or the collection's end).
      this.pos = last;
      if (!comma) break;
      pos = nl + 1;
      while (pos < stop && SPACE[buf[pos]!] === 1) pos++;
    }
    return taken;
  }

  /** One whole JSON value from here (after white space), parsed on its own. */
  value(): unknown {
    const first = this.peek();
    const at = this.offset;
    if (first === -1) throw this.unexpected(first, 'a value');
    const pieces: Buffer[] = [];
    const scalar = first !== QUOTE && first !== 0x7b && first !== 0x5b;
    let depth = 0;
    let inString = false;
    let escape = false;
    for (;;) {
      const { buf, end } = this;
      const start = this.pos;
      let i = start;
      let found = -1;
      if (scalar) {
        while (i < end && SCALAR_END[buf[i]!] !== 1) i++;
        if (i < end) found = i;
      } else {
        for (; i < end; i++) {
          const c = buf[i]!;
          if (inString) {
            if (escape) escape = false;
            else if (c === BACKSLASH) escape = true;
            else if (c === QUOTE) {
              inString = false;
              if (depth === 0) {
                found = i + 1;
                break;
              }
            }
          } else if (c === QUOTE) inString = true;
          else if (c === 0x7b || c === 0x5b) depth++;
          else if (c === 0x7d || c === 0x5d) {
            if (--depth === 0) {
              found = i + 1;
              break;
            }
          }
        }
      }
      if (found >= 0) {
        pieces.push(buf.subarray(start, found));
        this.pos = found;
        break;
      }
      pieces.push(buf.subarray(start, end));
      this.pos = end;
      if (!this.fill()) {
        if (scalar) break;
        throw new PieceError(`it ends at byte ${this.offset} in the middle of the value that begins at byte ${at}: the file was cut short`, this.offset);
      }
    }
    const text = pieces.length === 1 ? pieces[0]!.toString('utf8') : Buffer.concat(pieces).toString('utf8');
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new PieceError(`${(err as Error).message}, in the value that begins at byte ${at}`, at);
    }
  }

  /**
   * The next line (without its newline) and the offset after it; null at the end of the file. `whole` is false for a
   * last line with no newline.
   */
  line(): { text: string; whole: boolean; next: number } | null {
    const pieces: Buffer[] = [];
    for (;;) {
      if (this.pos >= this.end && !this.fill()) {
        if (pieces.length === 0) return null;
        return { text: Buffer.concat(pieces).toString('utf8'), whole: false, next: this.offset };
      }
      const nl = this.buf.indexOf(NEWLINE, this.pos);
      if (nl >= 0 && nl < this.end) {
        pieces.push(this.buf.subarray(this.pos, nl));
        this.pos = nl + 1;
        const text = pieces.length === 1 ? pieces[0]!.toString('utf8') : Buffer.concat(pieces).toString('utf8');
        return { text, whole: true, next: this.offset };
      }
      pieces.push(this.buf.subarray(this.pos, this.end));
      this.pos = this.end;
    }
  }
}

/** Where the string whose text begins at `from` ends (its closing quote), before `stop`; -1 if it runs on. */
function closingQuote(buf: Buffer, from: number, stop: number): number {
  for (let i = from; i < stop; i++) {
    const c = buf[i]!;
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i++;
  }
  return -1;
}

/** Whether a string's text (between its quotes) is its value as it stands: no escapes and no control characters. */
function plainKey(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (buf[i]! < 0x20 || buf[i] === BACKSLASH) return false;
  return true;
}

/** The levels of a snapshot that are walked here rather than parsed in one piece. */
type Level = 'top' | 'accounts' | 'account' | 'collection';

/** What a key at `level` holds: a level walked in turn, or null (an entry, parsed on its own). */
function below(level: Level, key: string): Level | null {
  if (level === 'top') return key === 'accounts' ? 'accounts' : key === 'jobs' ? 'collection' : null;
  if (level === 'accounts') return 'account';
  if (level === 'account') return 'collection';
  return null;
}

/** Sets a key as JSON.parse does (an own property, `__proto__` included). */
function put(target: Record<string, unknown>, key: string, value: unknown) {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

function walk(src: Source, level: Level, path: readonly string[], hook: EntryHook | undefined): unknown {
  const open = src.peek();
  if (open === 0x5b) {
    src.take(0x5b, "'['");
    const list: unknown[] = [];
    if (src.peek() === 0x5d) {
      src.take(0x5d, "']'");
      return list;
    }
    const mode = { batch: true };
    do {
      if (level === 'collection' && src.peek() !== 0x5d && src.wholeLines(list, mode, path, hook)) continue;
      const key = String(list.length);
      const value = entry(src, below(level, key), path, key, hook);
      if (level === 'collection') hook?.(path, key, value, list);
      list.push(value);
    } while (src.more(0x5d));
    return list;
  }
  src.take(0x7b, "'{'");
  const record: Record<string, unknown> = {};
  if (src.peek() === 0x7d) {
    src.take(0x7d, "'}'");
    return record;
  }
  do {
    if (level === 'collection' && src.peek() === QUOTE && src.wholeMembers(record, path, hook)) continue;
    if (src.peek() !== QUOTE) throw src.unexpected(src.peek(), 'a key (a string)');
    const key = src.value() as string;
    src.take(0x3a, "':'");
    const value = entry(src, below(level, key), path, key, hook);
    if (level === 'collection') hook?.(path, key, value, record);
    put(record, key, value);
  } while (src.more(0x7d));
  return record;
}

/** A value at `level`: walked when it is an object or array of a level walked here, else parsed in one piece. */
function entry(src: Source, level: Level | null, path: readonly string[], key: string, hook: EntryHook | undefined): unknown {
  if (level === null) return src.value();
  const c = src.peek();
  return c === 0x7b || c === 0x5b ? walk(src, level, [...path, key], hook) : src.value();
}

/**
 * The value a snapshot file holds, read in pieces (`chunk` bytes at a time; tests make it small); `empty` when it holds
 * only white space. `hook` sees each entry of a collection as it is read. Throws PieceError for text that is not JSON
 * (with the byte where it went wrong), or the error of reading the file.
 */
export function readSnapshotFile(file: string, chunk = CHUNK, hook?: EntryHook): { value: unknown; bytes: number } | 'empty' {
  const fd = openSync(file, 'r');
  try {
    const src = new Source(fd, chunk);
    const first = src.peek();
    if (first === -1) return 'empty';
    const value = first === 0x7b ? walk(src, 'top', [], hook) : src.value();
    const after = src.peek();
    if (after !== -1) throw new PieceError(`more text follows the state at byte ${src.offset} ('${String.fromCharCode(after)}')`, src.offset);
    return { value, bytes: src.offset };
  } finally {
    closeSync(fd);
  }
}

/** The lines of a file, read a chunk at a time: each line's text, whether it ended in a newline, and the offset after it. */
export function* fileLines(file: string, chunk = CHUNK): Generator<{ text: string; whole: boolean; next: number; restIsBlank: () => boolean }> {
  const fd = openSync(file, 'r');
  try {
    const src = new Source(fd, chunk);
    const restIsBlank = () => src.peek() === -1;
    for (let line = src.line(); line; line = src.line()) yield { text: line.text, whole: line.whole, next: line.next, restIsBlank };
  } finally {
    closeSync(fd);
  }
}
