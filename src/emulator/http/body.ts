import express, { type Request, type RequestHandler } from 'express';
import multer from 'multer';
import { MAX_UPLOAD_BYTES } from '../../core/index';
import { httpError } from './errors';

/** Largest JSON body accepted, bytes (room for a 921600-byte inline image as base64 and more, to answer 413 ourselves). */
export const JSON_LIMIT_BYTES = 8 * 1024 * 1024;

/** JSON body parser (`application/json` and `application/*+json`). */
export const jsonBody: RequestHandler = express.json({ limit: JSON_LIMIT_BYTES, type: ['application/json', 'application/*+json'] });

/**
 * The request body as a JSON object.
 * @throws LiveAiError 400 when the body is missing, not JSON, or not an object.
 */
export function objectBody(req: Request): Record<string, unknown> {
  const b: unknown = req.body;
  if (b === undefined || b === null || typeof b !== 'object' || Array.isArray(b)) {
    throw httpError(400, 'the request body must be a JSON object sent with Content-Type: application/json');
  }
  return b as Record<string, unknown>;
}

const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 4, fieldSize: 1024 * 1024, parts: 8 },
}).fields([
  { name: 'image', maxCount: 1 },
  { name: 'payload', maxCount: 1 },
]);

/**
 * Multipart parser of session creation: `image` file ≤ 4 MB (413 above), `payload` as a text field or
 * a file part (browsers send a JSON Blob as a file). Any other part or a malformed body → 400.
 */
export const multipartBody: RequestHandler = (req, res, next) => {
  upload(req, res, (err: unknown) => {
    if (!err) return next();
    const e = err as { code?: string; field?: string; message?: string };
    if (e.code === 'LIMIT_FILE_SIZE')
      return next(httpError(413, `the ${e.field ?? 'image'} part is larger than ${MAX_UPLOAD_BYTES} bytes (4 MB)`));
    if (e.code === 'LIMIT_UNEXPECTED_FILE')
      return next(httpError(400, `unexpected multipart part "${e.field ?? ''}"; send the parts image and payload`));
    return next(httpError(400, `malformed multipart body: ${e.message ?? String(err)}`));
  });
};

/** Uploaded files of `multipartBody`, by part name. */
export function uploadedFile(req: Request, name: string): Express.Multer.File | undefined {
  const files = req.files as Record<string, Express.Multer.File[]> | undefined;
  return files?.[name]?.[0];
}
