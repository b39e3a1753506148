// What the renderer expects of `window.outpost` in the desktop app. The
// preload implements it (src-main/electron/channels.ts); a type test in
// src-main/electron/ipcBridge.test.ts keeps the two in step.
import type { StatusBody } from '../../../../src-shared/errors';

export type BridgeResult = { ok: true; data: unknown } | { ok: false; error: StatusBody };

export interface BridgeEvent {
  type: string;
  [key: string]: unknown;
}

export interface OutpostBridge {
  invoke(operation: string, request?: Record<string, unknown>): Promise<BridgeResult>;
  onEvent(listener: (event: BridgeEvent) => void): () => void;
}
