// The desktop app's bridge as both sides see it: what the sandboxed preload
// exposes as `window.outpost` (src-main/electron/preload.ts) and what the
// renderer expects of it (src-renderer/src/lib/transport/index.electron.ts).
// One definition, so the two cannot drift apart.
import type { StatusBody } from './errors';

/** What an invoke resolves to. Errors travel as data (the google.rpc.Status body the HTTP API returns): Electron would reduce a thrown error to its message. */
export type BridgeResult = { ok: true; data: unknown } | { ok: false; error: StatusBody };

/**
 * What one invoke's answer is on the wire (host -> main -> renderer): the JSON
 * text of a BridgeResult for every JSON response — one string crosses a
 * process boundary (and the context bridge) far cheaper than a deep object
 * graph, and main forwards it untouched — or the BridgeResult itself for byte
 * results (a download's Uint8Array) and for errors made outside the engine.
 * The renderer's IPC transport reads it with readBridgeReply, once.
 */
export type BridgeReply = BridgeResult | string;

/** The BridgeResult an invoke answered (JSON text parsed; the same data HTTP's JSON body would give). */
export function readBridgeReply(reply: BridgeReply): BridgeResult {
  return typeof reply === 'string' ? (JSON.parse(reply) as BridgeResult) : reply;
}

/** An event pushed from the main process; `type` says what it is (e.g. `sync-status`). */
export interface BridgeEvent {
  type: string;
  [key: string]: unknown;
}

/** The desktop app's two profiles: the user's own, and the demo (its own data directory, never linked). */
export type ProfileKind = 'real' | 'demo';

export interface ProfileInfo {
  readonly kind: ProfileKind;
  readonly dataDir: string;
}

/** Which profile the window shows, and switching to the other (main stops one engine and opens the other). */
export interface ProfileSwitch {
  current(): Promise<ProfileInfo>;
  /** Resolves once the profile is open (the window reloads); rejects with what went wrong. */
  open(kind: ProfileKind): Promise<ProfileInfo>;
}

/** What the preload exposes as `window.outpost`. */
export interface OutpostBridge {
  /** Resolves to the reply as it crossed IPC; readBridgeReply gives the result. */
  invoke(operation: string, request?: Record<string, unknown>): Promise<BridgeReply>;
  /** Subscribes to main-process events; returns the unsubscribe function. */
  onEvent(listener: (event: BridgeEvent) => void): () => void;
}

/** `window.outpost` in the desktop app: the bridge, and the profile switch (the empty profile's "Try with demo data"). */
export interface DesktopBridge extends OutpostBridge {
  readonly profiles: ProfileSwitch;
}
