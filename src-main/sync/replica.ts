// Sync's part of an engine, assembled with it (openEngine's `replica`; the
// hosts pass sync/assembly/syncReplica.ts): on a replica, the outbox recorder
// that invoke() runs replicated writes through and the acting caller (the
// adopted remote user); on every engine, the remote profile store and the
// handlers of the sync operations. Linking a remote makes the database a
// replica, and recording starts with the next write.
import {
  isReplica,
  type Engine,
  type OpenedDatabase,
  type OperationHandlers,
  type ReplicaCapabilities,
  type SyncController,
  type WriteRecorder,
} from '../engine';
import type { ResourceCatalog } from './catalog';
import { cachedLocalCaller } from './identity';
import { createOutboxRecorder } from './recorder';
import { createRemoteProfileStore } from './profileStore';
import { dataDirSecretStore, type SecretStore } from './secretStore';

export interface ReplicaOptions {
  /** Record writes as a sync replica from the start (default: once the database's `sync.replica` setting says so). */
  readonly replica?: boolean;
  /** Where remote API keys live (default: a 0600 file in the data directory; the desktop app passes safeStorage). */
  readonly secrets?: SecretStore;
}

/** Sync's part of an engine, as sync itself sees it. */
export interface SyncReplica extends ReplicaCapabilities {
  /** The replicated resources (sync/resources/index.ts). */
  readonly catalog: ResourceCatalog;
  /** Where the remote's API key lives. */
  readonly secrets: SecretStore;
  /** A host's background sync takes SyncNow and the remote's changes while it runs (BackgroundSync start/stop). */
  controlledBy(controller: SyncController | undefined): void;
}

/** An engine assembled with sync. */
export type ReplicaEngine = Engine & { readonly replica: SyncReplica };

/** Sync's part of an engine over `catalog`, with the sync operations' handlers (sync/operations/handlers.ts). */
export function createSyncReplica(
  { db, dataDir }: OpenedDatabase,
  catalog: ResourceCatalog,
  operationHandlers: OperationHandlers,
  options: ReplicaOptions = {},
): SyncReplica {
  const secrets = options.secrets ?? dataDirSecretStore(dataDir);
  let recorder: WriteRecorder | undefined = options.replica ? createOutboxRecorder(db, catalog) : undefined;
  // Linking a remote (ConfigureSyncRemote, `outpost sync --remote`) sets the setting: the writes that follow are recorded.
  const writeRecorder = () => (recorder ??= isReplica(db) ? createOutboxRecorder(db, catalog) : undefined);
  const syncedCaller = cachedLocalCaller(db);
  let controller: SyncController | undefined;
  return {
    catalog,
    secrets,
    writeRecorder,
    remoteProfile: createRemoteProfileStore(db, secrets),
    actingCaller: () => (writeRecorder() ? syncedCaller() : undefined),
    operationHandlers,
    syncController: () => controller,
    controlledBy: (c) => {
      controller = c;
    },
  };
}
