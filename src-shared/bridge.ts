// The desktop app's bridge as both sides see it: what the sandboxed preload
// exposes as `window.outpost` (src-main/electron/preload.ts) and what the
// renderer expects of it (src-renderer/src/lib/transport/index.electron.ts).
// One definition, so the two cannot drift apart.
import type { StatusBody } from './errors';

/** What an invoke resolves to. Errors travel as data (the google.rpc.Status body the HTTP API returns): Electron would reduce a thrown error to its message. */
export type BridgeResult = { ok: true; data: unknown } | { ok: false; error: StatusBody };

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
