// The platform seam: the desktop app (a preload exposed window.outpost) talks
// IPC; the browser build talks HTTP to `outpost serve`. Nothing else in the
// renderer knows which one it is running on.
import { createClient, type Client } from '../../../../src-shared/client';
import type { BridgeEvent } from './bridge';
import { electronChangeWatcher, type ChangeWatcher } from './changeWatchers';
import { electronSyncWatcher, electronTransport } from './index.electron';
import { pollingSyncWatcher, webTransport } from './index.web';
import type { SyncWatcher } from './syncUpdates';

export type Platform = 'desktop' | 'web';

export interface Connection {
  readonly platform: Platform;
  readonly client: Client;
  /** Web only: false when the page has no API key (opened without `#key=...`). */
  readonly hasKey: boolean;
  /** Main-process events (desktop only; a no-op subscription on the web). */
  onEvent(listener: (event: BridgeEvent) => void): () => void;
  /** Live sync status: pushed by the main process on the desktop, polled on the web. */
  readonly watchSync: SyncWatcher;
  /** What changed in the engine (any window, `outpost serve` caller, sync pull or import): pushed on both platforms. */
  readonly watchChanges: ChangeWatcher;
}

export function connect(win: Window = window): Connection {
  const bridge = win.outpost;
  if (bridge) {
    return {
      platform: 'desktop',
      client: createClient(electronTransport(bridge)),
      hasKey: true,
      onEvent: (l) => bridge.onEvent(l),
      watchSync: electronSyncWatcher(bridge),
      watchChanges: electronChangeWatcher(bridge),
    };
  }
  const web = webTransport(win);
  const client = createClient(web.transport);
  return {
    platform: 'web',
    client,
    hasKey: web.hasKey,
    onEvent: () => () => {},
    watchSync: pollingSyncWatcher(client),
    watchChanges: web.watchChanges,
  };
}
