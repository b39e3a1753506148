// The sync entry a host calls on the engine it opened (`outpost serve`, the
// CLI, the desktop engine host): attachReplica installs what the engine knows
// of sync only as hooks (engine.ts). On a replica, the outbox recorder that
// invoke() runs replicated writes through and the acting caller (the adopted
// remote user); on every engine, the remote profile store (linking a remote
// makes the database a replica and turns recording on at once) and the
// handlers of the sync operations (sync/operations/).
import { isReplica, type Engine, type RemoteProfileStore } from '../engine';
import { cachedLocalCaller } from './identity';
import { syncHandlers } from './operations/handlers';

import { createOutboxRecorder } from './recorder';
import { resourceCatalog } from './resources';
import { createRemoteProfileStore } from './profileStore';
import { dataDirSecretStore, type SecretStore } from './secretStore';

export interface ReplicaOptions {
  /** Attach as a sync replica (default: the database's own `sync.replica` setting, set when a remote is linked). */
  readonly replica?: boolean;
  /** Where remote API keys live (default: a 0600 file in the data directory; the desktop app passes safeStorage). */
  readonly secrets?: SecretStore;
}

/** An engine with sync attached: it has a remote profile store. */
export type ReplicaEngine = Engine & { remoteProfile: RemoteProfileStore };

export function attachReplica(engine: Engine, options: ReplicaOptions = {}): ReplicaEngine {
  const { db } = engine;
  if (options.replica ?? isReplica(db)) engine.writeRecorder = createOutboxRecorder(db, resourceCatalog);
  // Linking a remote while running (ConfigureSyncRemote) turns recording on for the writes that follow.
  engine.remoteProfile = createRemoteProfileStore(db, options.secrets ?? dataDirSecretStore(engine.dataDir), () => {
    engine.writeRecorder ??= createOutboxRecorder(db, resourceCatalog);
  });
  const syncedCaller = cachedLocalCaller(db);
  engine.actingCaller = () => (engine.writeRecorder ? syncedCaller() : undefined);
  engine.operationHandlers = syncHandlers;
  return engine as ReplicaEngine;
}
