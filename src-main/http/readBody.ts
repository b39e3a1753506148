// Reading request bodies: JSON (bounded) and multipart/form-data (streamed to
// a temporary file, never buffered whole).
import busboy from 'busboy';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync, type WriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, Code } from '../../src-shared/errors';
import { FilePartHeaders, multipartBoundary } from './partHeaders';

export const MAX_JSON_BODY_BYTES = 16 * 1024 * 1024;
export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

/** Fatal: a byte sequence that is not UTF-8 is refused, not turned into U+FFFD (text the client never sent). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_JSON_BODY_BYTES) throw ApiError.invalid('body', `request body exceeds ${MAX_JSON_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  let text: string;
  try {
    text = utf8.decode(Buffer.concat(chunks));
  } catch {
    throw ApiError.invalid('body', 'is not valid UTF-8 text');
  }
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw ApiError.invalid('body', `malformed JSON: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw ApiError.invalid('body', 'the request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** A failed upload as the request's error: a full disk is RESOURCE_EXHAUSTED, anything else a malformed body. */
function uploadError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new ApiError(Code.RESOURCE_EXHAUSTED, 'disk full: the upload could not be stored; free some space and try again');
  return ApiError.invalid('body', `malformed multipart request: ${(e as Error)?.message ?? String(e)}`);
}

export interface UploadedFile {
  readonly path: string;
  readonly fileName: string;
  readonly mimeType: string;
  readonly encoding: string;
  readonly size: number;
}

/** Parses multipart/form-data: text fields as strings, the first file part (`file`) streamed to tmpDir, refused past `limit`. */
export async function readMultipart(
  req: IncomingMessage,
  tmpDir: string,
  limit: { bytes: number; message: string } = { bytes: MAX_UPLOAD_BYTES, message: `the uploaded file exceeds ${MAX_UPLOAD_BYTES} bytes` },
): Promise<{ fields: Record<string, string>; file?: UploadedFile; cleanup: () => void }> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) throw ApiError.invalid('body', 'expected a multipart/form-data request');
  mkdirSync(tmpDir, { recursive: true });
  const fields: Record<string, string> = {};
  const written: string[] = [];
  const cleanup = () => written.forEach((p) => rmSync(p, { force: true }));
  // A temp file is removed only once its stream has let go of it: a write stream opens its file asynchronously, so
  // one removed before that (a reset just after the file part began, a cut body) would be created after the removal.
  const sources: Readable[] = [];
  const sinks: WriteStream[] = [];
  const letGo = async () => {
    for (const s of sources) s.destroy();
    await Promise.allSettled(writes);
    await Promise.all(sinks.map((w) => (w.closed ? undefined : new Promise<void>((r) => w.once('close', () => r())))));
  };
  const failed = async (e: unknown): Promise<never> => {
    await letGo();
    cleanup();
    throw uploadError(e);
  };
  let file: UploadedFile | undefined;
  const boundary = multipartBoundary(type);
  const partHeaders = boundary === undefined ? undefined : new FilePartHeaders(boundary);
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: req.headers, limits: { fileSize: limit.bytes + 1, files: 1, fields: 50, fieldSize: 1024 * 1024 } });
  } catch (e) {
    throw ApiError.invalid('body', `malformed multipart request: ${(e as Error).message}`);
  }
  // Every write's failure is caught where it happens (a truncated body or a full disk can fail a write before
  // the parser says anything) and reported as the request's error below, never as an unhandled rejection.
  const writes: Promise<void>[] = [];
  let writeFailure: unknown;
  let stopParsing: (e: unknown) => void = () => undefined;
  let tooLarge = false;
  bb.on('field', (name, value) => (fields[name] = value));
  bb.on('file', (name, stream, info) => {
    if (name !== 'file' || file) {
      stream.resume();
      return;
    }
    const path = join(tmpDir, `upload-${randomUUID()}`);
    written.push(path);
    let size = 0;
    stream.on('data', (c: Buffer) => (size += c.length));
    stream.on('limit', () => (tooLarge = true));
    const encoding = partHeaders?.headers?.['content-encoding'] ?? '';
    const sink = createWriteStream(path);
    sources.push(stream);
    sinks.push(sink);
    writes.push(
      pipeline(stream, sink).then(
        () => {
          file = {
            path,
            fileName: info.filename ?? 'file',
            mimeType: info.mimeType || 'application/octet-stream',
            encoding,
            size,
          };
        },
        (e: unknown) => {
          writeFailure ??= e;
          // The parser waits for the stream the failed write destroyed: stop reading, answer now.
          stopParsing(e);
        },
      ),
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      stopParsing = (e) => {
        req.unpipe(bb);
        req.resume(); // drain the rest of the body so the answer can be read
        reject(e);
      };
      bb.on('close', resolve);
      bb.on('error', reject);
      req.on('error', reject);
      // A connection closed mid-body may end the request without an error: the parser would wait for ever.
      req.on('close', () => {
        if (!req.complete) reject(new Error('the connection closed before the upload was complete'));
      });
      // Before the pipe's own listener: the part headers are scanned before busboy announces the file.
      if (partHeaders) req.on('data', (chunk: Buffer) => partHeaders.push(chunk));
      req.pipe(bb);
    });
    await Promise.all(writes);
  } catch (e) {
    return failed(e);
  }
  if (writeFailure !== undefined) return failed(writeFailure);
  // (busboy stops a file at its fileSize limit: one byte past ours is enough to know it is too large.)
  if (tooLarge || (file !== undefined && file.size > limit.bytes)) return failed(ApiError.invalid('file', limit.message));
  await letGo(); // every file closed before a handler moves it
  return { fields, file, cleanup };
}
