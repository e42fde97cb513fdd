/**
 * Reads a Blob's bytes: `blob.arrayBuffer()` where it exists, else `FileReader` (older engines, jsdom).
 * @throws the reader's error when the blob cannot be read.
 */
export function blobToArrayBuffer(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('the blob could not be read'));
    reader.readAsArrayBuffer(blob);
  });
}

/** Reads a Blob as UTF-8 text (see `blobToArrayBuffer`). */
export async function blobToText(blob: Blob): Promise<string> {
  return new TextDecoder().decode(await blobToArrayBuffer(blob));
}
