// The thread of services/qr-images.ts: draws QR images (PNG data URLs) of the BR Codes it is sent, a batch at a time, in order.
import { parentPort } from 'node:worker_threads';
import { qrPngDataUrl } from '../pix/qr';

// This thread runs at the sandbox's own priority, unlike the fold's: every create waits for its image, so a lowered
// priority puts the answer behind whatever else the machine runs. At nice 10, with two other busy processes on this
// 2-core machine (a CI job's test runners beside the sandbox), creates ran at 0.35 of their rate at the sandbox's
// priority (c=10, alternating); on a quiet machine nice 10 had bought 2-7 %.

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
