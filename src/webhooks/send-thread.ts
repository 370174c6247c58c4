// Delivery attempts' HTTP off the event loop. Sending a delivery (undici's request and the receiver's answer parsed,
// both sockets' system calls) was about a fifth of the main thread's CPU per payment and delivery when many go out at
// once (bench:webhooks), and that thread is the one that answers the API. So the attempts of every sandbox in the
// process go to one worker thread (./send-worker.ts, built as dist/send-worker.js), which sends them with the same
// client as in line (./transport.ts postWithHttp, one per sandbox: its own connections) and answers with what an
// attempt reads: the status and Location as soon as the head is in, then the body's first bytes, or the error.
// Messages go both ways in batches, one per turn of each event loop. What the dispatcher sees is the Post it had:
// the same answers and errors, a Stop (time-out, close) cutting an attempt at once here and in the thread.
// Where there is no thread (running from the TypeScript sources: no built send-worker.js; or a thread that failed),
// attempts are sent in line, as before. The thread keeps the process alive only while an attempt waits for it, and
// ends when the last sandbox that sends through it closes (a test runner that loads the package afresh for each test
// file, as jest does, would otherwise keep one idle thread per file until it exits); the next attempt starts another.
import type { Worker } from 'node:worker_threads';
import { builtin } from '../lib/builtin';
import { builtWorker } from '../lib/worker-file';
import { postWithHttp, type Answer, type Post } from './transport';

/** Beside the bundle that imports this (dist/): scripts/build.mjs builds src/webhooks/send-worker.ts there. */
const WORKER_FILE = new URL('./send-worker.js', import.meta.url);
/** node:worker_threads, loaded at the first attempt (a start loads none of it). */
const threads = builtin<typeof import('node:worker_threads')>('node:worker_threads');

/** To the thread: send an attempt over `channel`'s connections, cut one short, or drop a channel's connections. */
export type ToThread =
  | { op: 'send'; id: number; channel: number; sockets: number; url: string; headers: Record<string, string>; body: string }
  | { op: 'stop'; id: number }
  | { op: 'close'; channel: number };
/** An error as it crosses: what the delivery log's wording reads of it (code, message, the cause's). */
export interface CrossedError {
  message: string;
  code?: string;
  cause?: { code?: string; message?: string };
}
/** From the thread: an answer's head, then its body's first bytes (with the head when both were in); or the error that ended the attempt. */
export type FromThread = { id: number; status: number; location: string | null; text?: string } | { id: number; text: string } | { id: number; error: CrossedError };

interface Waiting {
  resolve(answer: Answer): void;
  reject(err: unknown): void;
  /** Set once the head is in: hands the answer its text. */
  finish?: (text: string) => void;
}

/** One thread and what waits for it: shared by every sandbox of the process (`postInThread`); tests make their own. */
export class SendThread {
  #worker: Worker | null | undefined; // undefined: not started yet; null: not available (then attempts go in line)
  #waiting = new Map<number, Waiting>();
  #outbox: ToThread[] = [];
  #flushing = false;
  #ids = 0;
  #channels = 0;
  /** Channels not closed yet: the thread ends with the last one. */
  #open = 0;

  constructor(private readonly file: URL) {}

  #start(): Worker | null {
    if (this.#worker !== undefined) return this.#worker;
    const file = builtWorker(this.file);
    if (!file) return (this.#worker = null);
    const w = new (threads().Worker)(file);
    w.unref();
    w.on('message', (batch: FromThread[]) => {
      for (const m of batch) this.#answer(m);
      if (this.#waiting.size === 0) w.unref();
    });
    // A thread that fails is not started again: later attempts go in line.
    const fail = (err?: unknown) => {
      if (this.#worker === w) this.#end(null, `the delivery thread stopped${err instanceof Error ? ` (${err.message})` : ''}`);
    };
    w.on('error', fail);
    w.on('exit', () => fail());
    return (this.#worker = w);
  }

  /** Lets the thread go (`next`: undefined, another may start; null, none will): what still waits for it fails. */
  #end(next: null | undefined, why: string): void {
    const w = this.#worker;
    this.#worker = next;
    this.#outbox = [];
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    const lost = Object.assign(new Error(why), { code: 'ERR_WORKER' });
    for (const x of waiting) {
      if (x.finish) x.finish('');
      else x.reject(lost);
    }
    if (next === undefined) void w?.terminate();
  }

  /** Whether a thread is running now. */
  get running(): boolean {
    return !!this.#worker;
  }

  #answer(m: FromThread): void {
    const x = this.#waiting.get(m.id);
    if (!x) return; // cut short here already
    if ('error' in m) {
      this.#waiting.delete(m.id);
      const { message, code, cause } = m.error;
      x.reject(Object.assign(new Error(message), code === undefined ? {} : { code }, cause ? { cause } : {}));
      return;
    }
    if ('status' in m) {
      const text = new Promise<string>((r) => (x.finish = r));
      x.resolve({ status: m.status, location: m.location, text: () => text });
    }
    if (m.text !== undefined) {
      this.#waiting.delete(m.id);
      x.finish?.(m.text);
    }
  }

  #send(message: ToThread): void {
    this.#outbox.push(message);
    if (this.#flushing) return;
    this.#flushing = true;
    setImmediate(() => {
      this.#flushing = false;
      const batch = this.#outbox;
      this.#outbox = [];
      if (batch.length > 0) this.#worker?.postMessage(batch);
    });
  }

  /**
   * A Post over the thread with connections of its own (at most `sockets` per host), and close() to drop them. The
   * thread starts at the first attempt (a start starts none); where there is none, attempts go in line (postWithHttp).
   */
  channel(sockets: number): { post: Post; close(): void } {
    const channel = ++this.#channels;
    this.#open++;
    let closed = false;
    let inLine: ReturnType<typeof postWithHttp> | undefined;
    const post: Post = (url, headers, body, stop) => {
      const w = this.#start();
      if (!w) return (inLine ??= postWithHttp(sockets)).post(url, headers, body, stop);
      if (stop.stopped) return Promise.reject(stop.reason);
      const id = ++this.#ids;
      return new Promise<Answer>((resolve, reject) => {
        if (this.#waiting.size === 0) w.ref();
        const x: Waiting = { resolve, reject };
        this.#waiting.set(id, x);
        this.#send({ op: 'send', id, channel, sockets, url, headers, body });
        stop.onStop((reason) => {
          if (!this.#waiting.delete(id)) return;
          if (this.#waiting.size === 0) w.unref();
          if (x.finish) x.finish('');
          else reject(reason);
          this.#send({ op: 'stop', id });
        });
      });
    };
    return {
      post,
      close: () => {
        if (closed) return;
        closed = true;
        inLine?.close();
        if (--this.#open === 0 && this.#worker) this.#end(undefined, 'the delivery thread ended with the last sandbox sending through it');
        else if (this.#worker) this.#send({ op: 'close', channel });
      },
    };
  }
}

let shared: SendThread | undefined;
/** A Post over the process's delivery thread (dist/send-worker.js beside this bundle), or in line where there is none. */
export const postInThread = (sockets: number) => (shared ??= new SendThread(WORKER_FILE)).channel(sockets);
