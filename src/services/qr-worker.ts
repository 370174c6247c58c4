// The thread of services/qr-images.ts: draws QR images (PNG data URLs) of the BR Codes it is sent, a batch at a time, in order.
import { parentPort } from 'node:worker_threads';
import { qrPngDataUrl } from '../pix/qr';
import { lowerThreadPriority } from '../lib/thread-priority';

// On a machine whose cores are busy (the client beside the sandbox on 2 cores), a batch handed to this thread woke it
// at the expense of the thread that answers requests, which was then held until the batch was drawn. At a nice value
// of 10 the drawing yields to it instead, and batches grow. On this 2-core machine, quiet, alternating with the build
// before (two runs): creates per second 1.07 and 1.07 times at 10 connections, 1.12 and 1.01 times at 50; CPU per
// create 0.91 to 0.97. Per thread on Linux (lib/thread-priority.ts), as the fold's thread.
lowerThreadPriority();

parentPort!.on('message', ({ texts }: { texts: string[] }) => {
  const urls = texts.map((text) => {
    try {
      return qrPngDataUrl(text);
    } catch {
      return null; // The main thread draws it itself and so reports the error where it belongs.
    }
  });
  parentPort!.postMessage({ urls });
});
