// The oversized request bodies of the "refused before the body is read" tests (issue 36, items 6 and the session
// limit): 1.9 MB sent in 64 KB pieces, so a test can tell how much of it the proxy read before it answered.
import { request as httpRequest, type IncomingMessage } from 'node:http';

/** 1.9 MB, the body size of the attack. */
export const BIG = 1_900_000;
const CHUNK = 64 * 1024;

/**
 * POSTs all but the last byte of a `BIG + 1`-byte body to `url` (Node http): the body never ends, so an answer can
 * only come before it. Resolves with the answer's status and `detail`, and how many bytes had been written.
 */
export function postUnfinishedBody(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; detail: string; written: number }> {
  return new Promise((resolve, reject) => {
    let written = 0;
    const req = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(BIG + 1), ...headers },
    });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, detail: (JSON.parse(text) as { detail: string }).detail, written });
        req.destroy();
      });
    });
    const pad = Buffer.alloc(CHUNK, 0x61);
    const pump = () => {
      while (written < BIG) {
        const n = Math.min(CHUNK, BIG - written);
        written += n;
        if (!req.write(n === CHUNK ? pad : pad.subarray(0, n))) return void req.once('drain', pump);
      }
    };
    pump();
  });
}

/** A `BIG`-byte body for a Fetch `Request`, made only as it is read: `pulled()` says how much of it was. */
export function pulledBody(): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= BIG) return controller.close();
        const n = Math.min(CHUNK, BIG - pulled);
        pulled += n;
        controller.enqueue(new Uint8Array(n).fill(0x61));
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulled: () => pulled };
}
