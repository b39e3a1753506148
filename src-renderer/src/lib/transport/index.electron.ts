// Desktop transport: every call goes through the preload's one narrow
// function, window.outpost.invoke(operation, request). The main process
// validates and runs it; errors come back as google.rpc.Status bodies.
import type { CallOptions, Transport } from '../../../../src-shared/client';
import { readBridgeReply } from '../../../../src-shared/bridge';
import { ApiError } from '../../../../src-shared/errors';
import type { SyncStatus } from '../../../../src-shared/api/sync';
import type { OutpostBridge } from './bridge';
import type { SyncProgress, SyncWatcher } from './syncUpdates';

/** IPC needs structured-clone data; Svelte state proxies and class instances are not. Requests are JSON by definition. */
function plain(request: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(request)) as Record<string, unknown>;
}

/** How much of a file is read at a time when its progress is watched. */
export const READ_CHUNK_BYTES = 1 << 20;

/**
 * A Blob's bytes, read a chunk at a time so the reading can be reported. IPC
 * then hands them to the main process in one message: on the desktop, reading
 * the file is the part of an upload that takes time, so that is the progress shown.
 */
export async function readWithProgress(
  blob: Blob,
  onProgress?: CallOptions['onUploadProgress'],
  chunkBytes = READ_CHUNK_BYTES,
): Promise<Uint8Array> {
  if (!onProgress) return new Uint8Array(await blob.arrayBuffer());
  const bytes = new Uint8Array(blob.size);
  onProgress(0, blob.size);
  for (let at = 0; at < blob.size; at += chunkBytes) {
    bytes.set(new Uint8Array(await blob.slice(at, at + chunkBytes).arrayBuffer()), at);
    onProgress(Math.min(at + chunkBytes, blob.size), blob.size);
  }
  return bytes;
}

/** Uploads: the File travels as its bytes (the main process stages it; it never accepts a path). */
async function uploadRequest(request: Record<string, unknown>, options: CallOptions): Promise<Record<string, unknown>> {
  const { file, ...fields } = request;
  const out = plain(fields);
  if (file instanceof Blob) {
    out.file = {
      fileName: (file as File).name || 'file',
      mimeType: file.type,
      bytes: await readWithProgress(file, options.onUploadProgress),
    };
  }
  return out;
}

export function electronTransport(bridge: OutpostBridge): Transport {
  return {
    async call(name, op, request, options = {}) {
      const payload = op.input === 'multipart' ? await uploadRequest(request, options) : plain(request);
      // A JSON response arrives as its text (parsed here, once); bytes and main's own errors as objects.
      const result = readBridgeReply(await bridge.invoke(name, payload));
      if (!result.ok) throw ApiError.fromBody(result.error);
      return result.data;
    },
  };
}

/** Sync status pushed by the main process's scheduler (`sync-status`, `sync-progress` events). */
export function electronSyncWatcher(bridge: OutpostBridge): SyncWatcher {
  return (listener) =>
    bridge.onEvent((event) => {
      if (event.type === 'sync-status' && event.status)
        listener({ kind: 'status', status: event.status as SyncStatus, running: event.running === true });
      else if (event.type === 'sync-progress' && event.progress) listener({ kind: 'progress', progress: event.progress as SyncProgress });
    });
}
