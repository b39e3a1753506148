// The IPC contract between the sandboxed preload and the main process. This
// file has no imports: the preload bundle must contain nothing but this and
// `electron`.

/** ipcRenderer.invoke(INVOKE_CHANNEL, operationName, request) -> BridgeResult. */
export const INVOKE_CHANNEL = 'outpost:invoke';
/** main -> renderer push events (sync status and the like). */
export const EVENT_CHANNEL = 'outpost:event';

/** google.rpc.Status as it crosses IPC (the same body the HTTP API returns). */
export interface BridgeErrorBody {
  code: number;
  message: string;
  details: unknown[];
}

/** What an invoke resolves to. Errors travel as data: Electron would reduce a thrown error to its message. */
export type BridgeResult = { ok: true; data: unknown } | { ok: false; error: BridgeErrorBody };

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
