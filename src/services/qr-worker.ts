// The thread of services/qr-images.ts: draws QR images (PNG data URLs) of the BR Codes it is sent, in order.
import { parentPort } from 'node:worker_threads';
import { qrPngDataUrl } from '../pix/qr';

parentPort!.on('message', ({ n, text }: { n: number; text: string }) => {
  let url: string | null = null;
  try {
    url = qrPngDataUrl(text);
  } catch {
    // The main thread draws it itself and so reports the error where it belongs.
  }
  parentPort!.postMessage({ n, url });
});
