// The IPC adapter: the desktop twin of http/server.ts. Every call from the
// renderer is checked (sender frame is our renderer, operation is in the
// operation table, request is a plain object), then run through invoke(),
// which validates the request with the operation's zod schema exactly as the
// HTTP router does. Errors come back as google.rpc.Status bodies.
//
// Plain module over an `ipcMain`-like object so it is unit-testable in Node.
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Readable } from 'node:stream';
import { ApiError, Code } from '../../src-shared/errors';
import { operations, type OperationName } from '../../src-shared/operations';
import type { RequestContext } from '../engine';
import { MAX_UPLOAD_BYTES, type UploadedFile } from '../http/readBody';
import type { BinaryResult } from '../services/handler';
import { invoke } from '../services/invoke';
import { INVOKE_CHANNEL, type BridgeResult, type IpcFile } from './channels';

/** The part of Electron's IpcMainInvokeEvent the bridge reads. */
export interface InvokeEventLike {
  readonly senderFrame: { readonly url: string } | null | undefined;
}

/** The part of Electron's `ipcMain` the bridge uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown> | unknown): void;
  removeHandler(channel: string): void;
}

export interface IpcBridgeOptions {
  /** The engine and the local user each call runs as. */
  readonly context: () => RequestContext;
  /** True when `url` (the sender frame's URL) is our renderer. */
  readonly isTrustedSender: (url: string) => boolean;
  /** Unexpected (non-ApiError) failures: logged here, never sent to the renderer. */
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
  if (Buffer.isBuffer(body)) return new Uint8Array(body);
  const chunks: Buffer[] = [];
  for await (const chunk of body as Readable) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return new Uint8Array(Buffer.concat(chunks));
}

function failure(error: ApiError): BridgeResult {
  return { ok: false, error: error.toBody() };
}

/** Handles one `invoke(operation, request)` from the renderer. Never throws. */
export async function handleInvoke(options: IpcBridgeOptions, event: InvokeEventLike, operation: unknown, request: unknown): Promise<BridgeResult> {
  const url = event.senderFrame?.url;
  if (!url || !options.isTrustedSender(url)) {
    return failure(ApiError.permissionDenied('IPC call from an untrusted frame'));
  }
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
    if (op.input === 'multipart') ({ raw, cleanup } = stageUpload(ctx, raw));
    const result = await invoke(ctx, operation, raw);
    if (op.output === 'binary' && isBinaryResult(result)) return { ok: true, data: await collect(result.body) };
    return { ok: true, data: result };
  } catch (e) {
    if (e instanceof ApiError) return failure(e);
    options.onInternalError?.(operation, e);
    return failure(new ApiError(Code.INTERNAL, 'internal error'));
  } finally {
    cleanup();
  }
}

function isIpcFile(x: unknown): x is IpcFile {
  const f = x as Partial<IpcFile> | null;
  return isPlainObject(f) && typeof f.fileName === 'string' && (f.mimeType === undefined || typeof f.mimeType === 'string') && f.bytes instanceof Uint8Array;
}

/**
 * Uploads over IPC carry the file's bytes; the bridge writes them to a
 * temporary file and hands the operation the same UploadedFile the HTTP
 * router's multipart reader produces. A renderer can never name a path on
 * disk (which would let it make the main process read any file).
 */
function stageUpload(ctx: RequestContext, request: Record<string, unknown>): { raw: Record<string, unknown>; cleanup: () => void } {
  const { file, ...fields } = request;
  if (file === undefined) return { raw: fields, cleanup: () => {} };
  if (!isIpcFile(file)) throw ApiError.invalid('file', 'must be {fileName, mimeType, bytes}: the content of the file, never a path');
  if (file.bytes.byteLength > MAX_UPLOAD_BYTES) throw ApiError.invalid('file', `the uploaded file exceeds ${MAX_UPLOAD_BYTES} bytes`);
  const dir = join(ctx.engine.dataDir, 'tmp');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `upload-ipc-${randomUUID()}`);
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

/** Registers the invoke handler; returns a function that unregisters it. */
export function registerIpcBridge(ipcMain: IpcMainLike, options: IpcBridgeOptions): () => void {
  ipcMain.handle(INVOKE_CHANNEL, (event, operation, request) => handleInvoke(options, event, operation, request));
  return () => ipcMain.removeHandler(INVOKE_CHANNEL);
}

/**
 * The sender check: the frame must be a document of our renderer, i.e. under
 * `rendererUrl` (the app:// origin in production, the dev server in development).
 */
export function trustedSenderCheck(rendererUrls: readonly string[]): (url: string) => boolean {
  const allowed = rendererUrls.map((u) => new URL(u));
  return (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    return allowed.some((a) => parsed.protocol === a.protocol && parsed.host === a.host && parsed.pathname.startsWith(a.pathname));
  };
}
