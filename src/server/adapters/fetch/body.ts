import { LiveAiError, MAX_UPLOAD_BYTES } from '../../../core/index';
import type { ProxyCall } from '../../proxy/core';
import { checkDeclaredImageType } from '../../session/images';
import type { ProxyAction } from '../../options';

/** Largest JSON body, bytes: room for a 921600-byte inline image as base64, so we can answer its 413 ourselves. */
const JSON_LIMIT_BYTES = 2 * 1024 * 1024;
/** Largest `text/plain` body (the `/end` beacon), bytes. */
const TEXT_LIMIT_BYTES = 16 * 1024;
/** Multipart overhead allowed on top of the 4 MB image: part headers and the payload part, in bytes. */
const MULTIPART_SLACK_BYTES = 128 * 1024;

/**
 * Reads and parses a Fetch `Request` body by its content type, never buffering more than its limit:
 * JSON (≤ 2 MB; ≤ 16 KB for `/end`), `text/plain` for `/end` (≤ 16 KB), multipart for `POST /sessions` (image ≤ 4 MB).
 * Other types leave the body unread (the route then answers 400).
 * @throws LiveAiError 400 (invalid JSON, malformed multipart, unexpected or repeated part), 413 (too large),
 *   415 (image type, a `Content-Encoding` other than identity, a charset other than UTF-8).
 */
export async function readBody(request: Request, action: ProxyAction): Promise<Pick<ProxyCall<Request>, 'body' | 'multipart'>> {
  if (request.method !== 'POST' || !request.body) return {};
  const type = checkBodyEncoding(request.headers.get('content-type'), request.headers.get('content-encoding'));
  if (type === 'multipart/form-data' && action === 'createSession') {
    const bytes = await readLimited(request, MAX_UPLOAD_BYTES + MULTIPART_SLACK_BYTES, 'The image is larger than 4 MB (4194304 bytes)');
    return { multipart: await parseMultipart(bytes, request.headers.get('content-type')!) };
  }
  if (type === 'application/json' || type.endsWith('+json')) {
    // The body of /end holds at most a client token: its limit is the text one.
    const limit = action === 'end' ? TEXT_LIMIT_BYTES : JSON_LIMIT_BYTES;
    const text = decode(await readLimited(request, limit, 'The body is too large'));
    if (text.trim() === '') return {};
    try {
      return { body: JSON.parse(text) };
    } catch {
      throw new LiveAiError('invalid_request', 'The body is not valid JSON', { status: 400 });
    }
  }
  if (type === 'text/plain' && action === 'end')
    return { body: decode(await readLimited(request, TEXT_LIMIT_BYTES, 'The body is too large')) };
  return {};
}

/**
 * Refuses (415) a body the proxy does not read: a `Content-Encoding` other than identity, or a charset other than
 * UTF-8 on a JSON or text body. Both adapters call it before parsing. Returns the media type, lower case.
 */
export function checkBodyEncoding(contentType: string | null | undefined, contentEncoding: string | null | undefined): string {
  const encoding = contentEncoding?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') throw new LiveAiError('invalid_request', 'Unsupported content encoding', { status: 415 });
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8' && type !== 'multipart/form-data') {
    throw new LiveAiError('invalid_request', 'Unsupported charset', { status: 415 });
  }
  return type;
}

async function parseMultipart(bytes: Uint8Array, contentType: string) {
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new LiveAiError('invalid_request', 'Malformed multipart body', { status: 400 });
  }
  const names = [...form.keys()];
  for (const name of names) {
    if (name !== 'image' && name !== 'payload')
      throw new LiveAiError('invalid_request', 'Unexpected multipart part: send only "image" and "payload"', { status: 400 });
  }
  if (form.getAll('image').length > 1 || form.getAll('payload').length > 1) {
    throw new LiveAiError('invalid_request', 'Unexpected multipart part: send only "image" and "payload"', { status: 400 });
  }
  const image = form.get('image');
  const payload = form.get('payload');
  if (image !== null && typeof image === 'string')
    throw new LiveAiError('invalid_request', 'The image part must be a file', { status: 400 });
  if (image) {
    checkDeclaredImageType(image.type);
    if (image.size > MAX_UPLOAD_BYTES)
      throw new LiveAiError('payload_too_large', 'The image is larger than 4 MB (4194304 bytes)', { status: 413 });
  }
  return {
    image: image ? { bytes: new Uint8Array(await image.arrayBuffer()), mimetype: image.type, filename: image.name } : undefined,
    payload: payload === null ? undefined : typeof payload === 'string' ? payload : await payload.text(),
  };
}

/** Reads the body, refusing (413) as soon as it passes `limit` bytes, so a huge upload is never buffered. */
async function readLimited(request: Request, limit: number, tooLarge: string): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  const fail = () => new LiveAiError('payload_too_large', tooLarge, { status: 413 });
  if (Number.isFinite(declared) && declared > limit) throw fail();
  const reader = request.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch {
      throw new LiveAiError('invalid_request', 'The request body could not be read', { status: 400 });
    }
    if (step.done) break;
    size += step.value.length;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      throw fail();
    }
    chunks.push(step.value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
