// QR images drawn off the event loop. Drawing a charge's QR image (pix/qr.ts: segments, Reed-Solomon, eight masks
// scored, the PNG) was about a third of POST /v2/pix's CPU; a create now sends the BR Code to one worker thread per
// process, shared by every sandbox in it, and goes on with other requests until the image comes back (the way a
// server's crypto runs in libuv's threads). The image is the same PNG (qrPngDataUrl), byte for byte.
// The thread starts at the first image (a first create waits for it, tens of ms; what it was sent meanwhile waits in
// its queue). Where it cannot be had (running from the TypeScript sources, where there is no built qr-worker.js, or a
// thread that failed), images are drawn in line as before. The thread keeps the process alive only while an image is
// awaited (a script that awaits app.request() with no server must get its answer), never when idle.
import type { Worker } from 'node:worker_threads';
import { builtin } from '../lib/builtin';
import { builtWorker } from '../lib/worker-file';

/** Beside the bundle that imports this (dist/): scripts/build.mjs builds src/services/qr-worker.ts there. */
const WORKER_FILE = new URL('./qr-worker.js', import.meta.url);
/** node:worker_threads, loaded at the first image (a start loads none of it). */
const threads = builtin<typeof import('node:worker_threads')>('node:worker_threads');
/** The encoder, for images drawn here (no thread): imported then, not at start (its tables are built when it loads). */
let encoder: Promise<typeof import('../pix/qr')> | undefined;
const drawHere = (text: string): Promise<string> => (encoder ??= import('../pix/qr')).then((m) => m.qrPngDataUrl(text));

let worker: Worker | null | undefined; // undefined: not tried yet; null: not available
/**
 * What waits for an image, in the order the texts were sent (the thread answers batches in that order). An array taken
 * from the front, not a Map keyed by number: a Map's deleted entries kept their resolve functions (and so each
 * create's promise and its 1.1 KB image) alive past two scavenges, into the old generation, where they died and left
 * the pages that hold the stored charges half empty (about 500 bytes of RSS per charge made, sandbox.md 10).
 */
const pending: Array<(url: string | null) => void> = [];
/**
 * Texts go to the thread in small batches, several batches with it at a time. A message costs more than an image (it
 * wakes the other thread), hence batches. But a batch is answered only once its last image is drawn, and its answer
 * waits for this event loop's turn to end: hence small batches, with the next ones already queued in the thread.
 * Sending every create of a turn as one batch, one batch at a time, made the two threads take turns (each idle while
 * the other worked): at 50 connections the machine's 2 cores sat 31 % idle, against 10-13 % now, and creates now run
 * 1.25x (50 connections) and 1.33x (10) as fast. What comes while MAX_BATCHES are out waits for an answer; otherwise
 * texts go as soon as MAX_BATCH of them wait, the rest at the end of the event loop's turn.
 */
const MAX_BATCH = 4;
const MAX_BATCHES = 4;
let out = 0; // batches sent and not yet answered
let flushing = false;
let waiting: string[] = [];

function send(w: Worker): void {
  while (out < MAX_BATCHES && waiting.length > 0) {
    out++;
    w.postMessage({ texts: waiting.splice(0, MAX_BATCH) });
  }
}

function start(): Worker | null {
  if (worker !== undefined) return worker;
  const file = builtWorker(WORKER_FILE);
  if (!file) return (worker = null);
  const w = new (threads().Worker)(file);
  w.unref();
  // The answer to a batch: its images in order (null where one could not be drawn).
  w.on('message', ({ urls }: { urls: Array<string | null> }) => {
    if (worker !== w) return; // a thread let go: what it owed was drawn in line
    out--;
    send(w);
    const answered = pending.splice(0, urls.length);
    for (let i = 0; i < answered.length; i++) answered[i]!(urls[i]!);
    if (pending.length === 0) w.unref();
  });
  // A thread that fails is not started again: later images are drawn in line.
  const fail = () => {
    if (worker === w) end(null);
  };
  w.on('error', fail);
  w.on('exit', fail);
  return (worker = w);
}

/** Lets the thread go (`next`: undefined, another may start; null, none will); the images it owed are drawn in line. */
function end(next: null | undefined): void {
  const w = worker;
  worker = next;
  waiting = [];
  out = 0;
  for (const resolve of pending.splice(0)) resolve(null);
  if (next === undefined) void w?.terminate();
}

let users = 0;
/**
 * A sandbox holds the thread from its start to its close(): the thread ends with the last one open, as the delivery
 * thread does (webhooks/send-thread.ts), so that a test runner that loads the package afresh for each test file (jest
 * does) keeps no idle thread per file until it exits. The next image starts another. Returns the release.
 */
export function holdQrThread(): () => void {
  users++;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (--users === 0 && worker) end(undefined);
  };
}

/** `data:image/png;base64,...` of the QR code of `text` (qrPngDataUrl), drawn in the worker thread when there is one. */
export function drawQrDataUrl(text: string): Promise<string> {
  const w = start();
  if (!w) return drawHere(text);
  // null: the thread could not draw it (or went away); then it is drawn here, and an error is the caller's to answer.
  return new Promise<string | null>((resolve) => {
    if (pending.length === 0) w.ref();
    pending.push(resolve);
    waiting.push(text);
    if (waiting.length >= MAX_BATCH) send(w);
    else if (out < MAX_BATCHES && !flushing) {
      flushing = true;
      setImmediate(() => {
        flushing = false;
        if (worker) send(worker); // the thread of now: one let go meanwhile has had its texts drawn in line
      });
    }
  }).then((url) => url ?? drawHere(text));
}
