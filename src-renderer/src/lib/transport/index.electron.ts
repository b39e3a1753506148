// Desktop transport: every call goes through the preload's one narrow
// function, window.outpost.invoke(operation, request). The main process
// validates and runs it; errors come back as google.rpc.Status bodies.
import type { Transport } from '../../../../src-shared/client';
import { ApiError } from '../../../../src-shared/errors';
import type { SyncStatus } from '../../../../src-shared/api/sync';
import type { OutpostBridge } from './bridge';
import type { SyncProgress, SyncWatcher } from './syncUpdates';

/** IPC needs structured-clone data; Svelte state proxies and class instances are not. Requests are JSON by definition. */
function plain(request: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(request)) as Record<string, unknown>;
}

/** Uploads: the File travels as its bytes (the main process stages it; it never accepts a path). */
async function uploadRequest(request: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { file, ...fields } = request;
  const out = plain(fields);
  if (file instanceof Blob) {
    out.file = { fileName: (file as File).name || 'file', mimeType: file.type, bytes: new Uint8Array(await file.arrayBuffer()) };
  }
  return out;
}

export function electronTransport(bridge: OutpostBridge): Transport {
  return {
    async call(name, op, request) {
      const payload = op.input === 'multipart' ? await uploadRequest(request) : plain(request);
      const result = await bridge.invoke(name, payload);
      if (!result.ok) throw ApiError.fromBody(result.error);
      return result.data;
    },
  };
}

/** Sync status pushed by the main process's scheduler (`sync-status`, `sync-progress` events). */
export function electronSyncWatcher(bridge: OutpostBridge): SyncWatcher {
  return (listener) =>
    bridge.onEvent((event) => {
      if (event.type === 'sync-status' && event.status) listener({ kind: 'status', status: event.status as SyncStatus, running: event.running === true });
      else if (event.type === 'sync-progress' && event.progress) listener({ kind: 'progress', progress: event.progress as SyncProgress });
    });
}
