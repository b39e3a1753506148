// One call of the operation table inside the engine host: the port twin of
// http/server.ts. The operation must be in the table and the request a plain
// object; invoke() then validates it with the operation's zod schema exactly
// as the HTTP router does. Results and errors are what HTTP would answer:
// the response object, or the google.rpc.Status body.
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ApiError, Code } from '../../src-shared/errors';
import { operations, type OperationName } from '../../src-shared/operations';
import type { RequestContext } from '../engine';
import type { UploadedFile } from '../http/readBody';
import { uploadLimitFor } from '../http/uploadLimits';
import type { BinaryResult } from '../services/common/handler';
import { invoke } from '../services/invoke';
import type { CallResult } from './protocol';

/**
 * The `file` of an upload operation (input: multipart) over a port: the content
 * itself. The host writes it to a temporary file; it never accepts a path from a
 * caller (which would let the renderer make the engine read any file).
 */
export interface PortFile {
  fileName: string;
  mimeType?: string;
  bytes: Uint8Array;
}

export interface DispatchOptions {
  /** The engine and the local user each call runs as. */
  readonly context: () => RequestContext;
  /** Unexpected (non-ApiError) failures: logged by the host, never sent to the caller. */
  readonly onInternalError?: (operation: string, error: unknown) => void;
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && Object.hasOwn(operations, name);
}

function isBinaryResult(x: unknown): x is BinaryResult {
  return typeof x === 'object' && x !== null && 'contentType' in x && 'body' in x;
}

async function collect(body: BinaryResult['body']): Promise<Uint8Array> {
  if (Buffer.isBuffer(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  const chunks: Buffer[] = [];
  for await (const chunk of body as Readable) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  const all = Buffer.concat(chunks);
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}

export function failure(error: ApiError): CallResult {
  return { ok: false, error: error.toBody() };
}

/** The error body of anything thrown: an ApiError as it is, anything else INTERNAL (reported, never described). */
export function errorResult(operation: string, e: unknown, options: DispatchOptions): CallResult {
  if (e instanceof ApiError) return failure(e);
  options.onInternalError?.(operation, e);
  return failure(new ApiError(Code.INTERNAL, 'internal error'));
}

/** Runs one call. Never throws. */
export async function dispatch(options: DispatchOptions, operation: unknown, request: unknown): Promise<CallResult> {
  if (!isOperationName(operation)) {
    return failure(ApiError.unimplemented(`unknown operation '${String(operation).slice(0, 100)}'`));
  }
  if (request !== undefined && request !== null && !isPlainObject(request)) {
    return failure(ApiError.invalid('request', 'must be an object'));
  }
  const op = operations[operation];
  let raw: Record<string, unknown> = request ?? {};
  let cleanup = () => {};
  try {
    const ctx = options.context();
    if (op.input === 'multipart') ({ raw, cleanup } = stageUpload(ctx, operation, raw));
    const result = await invoke(ctx, operation, raw);
    if (op.output === 'binary' && isBinaryResult(result)) return { ok: true, data: await collect(result.body) };
    return { ok: true, data: result };
  } catch (e) {
    return errorResult(operation, e, options);
  } finally {
    cleanup();
  }
}

function isPortFile(x: unknown): x is PortFile {
  const f = x as Partial<PortFile> | null;
  return (
    isPlainObject(f) &&
    typeof f.fileName === 'string' &&
    (f.mimeType === undefined || typeof f.mimeType === 'string') &&
    f.bytes instanceof Uint8Array
  );
}

/** A temporary file in the data directory (the store renames it into place), removed by `cleanup` otherwise. */
export function tempUploadPath(ctx: RequestContext): string {
  const dir = join(ctx.engine.dataDir, 'tmp');
  mkdirSync(dir, { recursive: true });
  return join(dir, `upload-ipc-${randomUUID()}`);
}

/**
 * Uploads over the port carry the file's bytes; the host writes them to a
 * temporary file and hands the operation the same UploadedFile the HTTP
 * router's multipart reader produces.
 */
function stageUpload(
  ctx: RequestContext,
  operation: OperationName,
  request: Record<string, unknown>,
): { raw: Record<string, unknown>; cleanup: () => void } {
  const { file, ...fields } = request;
  if (file === undefined) return { raw: fields, cleanup: () => {} };
  if (!isPortFile(file)) throw ApiError.invalid('file', 'must be {fileName, mimeType, bytes}: the content of the file, never a path');
  // The same limit and words as the HTTP router's multipart reader.
  const limit = uploadLimitFor(operation);
  if (file.bytes.byteLength > limit.bytes) throw ApiError.invalid('file', limit.message);
  const path = tempUploadPath(ctx);
  writeFileSync(path, file.bytes, { mode: 0o600 });
  const uploaded: UploadedFile = {
    path,
    fileName: file.fileName || 'file',
    mimeType: file.mimeType || 'application/octet-stream',
    encoding: '',
    size: file.bytes.byteLength,
  };
  return { raw: { ...fields, file: uploaded }, cleanup: () => rmSync(path, { force: true }) };
}
