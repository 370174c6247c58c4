// The thread of services/qr-images.ts: draws QR images (PNG data URLs) of the BR Codes it is sent, a batch at a time, in order.
import { parentPort } from 'node:worker_threads';
import { qrPngDataUrl } from '../pix/qr';

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
