// The IPC contract between the sandboxed preload and the main process. Only
// type imports here: the preload bundle must contain nothing but this and
// `electron`.
import type { StatusBody } from '../../src-shared/errors';

/** ipcRenderer.invoke(INVOKE_CHANNEL, operationName, request) -> BridgeResult. */
export const INVOKE_CHANNEL = 'outpost:invoke';
/** main -> renderer push events (sync status and the like). */
export const EVENT_CHANNEL = 'outpost:event';

/** What an invoke resolves to. Errors travel as data (the google.rpc.Status body the HTTP API returns): Electron would reduce a thrown error to its message. */
export type BridgeResult = { ok: true; data: unknown } | { ok: false; error: StatusBody };

/**
 * The `file` of an upload operation (input: multipart) over IPC: the content
 * itself. The main process writes it to a temporary file; it never accepts a path.
 */
export interface IpcFile {
  fileName: string;
  mimeType?: string;
  bytes: Uint8Array;
}

/** An event pushed from the main process; `type` says what it is (e.g. `sync-status`). */
export interface BridgeEvent {
  type: string;
  [key: string]: unknown;
}

/** What the preload exposes as `window.outpost`. */
export interface OutpostBridge {
  invoke(operation: string, request?: Record<string, unknown>): Promise<BridgeResult>;
  /** Subscribes to main-process events; returns the unsubscribe function. */
  onEvent(listener: (event: BridgeEvent) => void): () => void;
}
