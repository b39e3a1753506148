// The engine: one open profile database plus what every request needs. The
// HTTP server, the Electron IPC bridge, the CLI and the sync worker all run
// operations through an Engine. The engine knows sync only through its
// ReplicaCapabilities, assembled with it (sync/replica.ts syncReplica, passed
// to openEngine by the hosts).
import { join } from 'node:path';
import type { SyncRemote } from '../src-shared/api/sync';
import type { Caller } from './auth/caller';
import type { RowGate } from './auth/cedar/authorize';
import { defaultPolicyRecord } from './auth/defaultPolicy';
import { acquireDataDirLock, type DataDirLock } from './db/dataDirLock';
import { defaultDataDir } from './db/dataDir';
import { openDatabase, type Db } from './db/database';
import { removeLeftoverTempFiles } from './db/tempFolder';

export interface Engine {
  readonly db: Db;
  readonly dataDir: string;
  /** Secret that signs page tokens (per database). */
  readonly pageTokenSecret: string;
  /**
   * What sync gives this engine, assembled with it (openEngine's `replica`): absent in plain tests, benches and
   * one-shot commands that never sync.
   */
  readonly replica?: ReplicaCapabilities;
  /** This process's hold on the data directory (one Outpost process per directory; db/dataDirLock.ts). */
  readonly lock: DataDirLock;
  close(): void;
}

/** Sync's part of an engine (sync/replica.ts assembles it); the engine knows sync only through it. */
export interface ReplicaCapabilities {
  /** While this database is a sync replica: records replicated writes in the outbox (see sync/outbox.ts). */
  writeRecorder(): WriteRecorder | undefined;
  /** The remote this database syncs with (URL setting + API key in the SecretStore). */
  readonly remoteProfile: RemoteProfileStore;
  /**
   * On a replica that has synced: the remote user every local request acts as
   * (local records carry the remote's user and organization ids; see sync/identity.ts).
   */
  actingCaller(): Caller | undefined;
  /** Handlers of the operations that live above the services (sync/operations/); invoke() looks here for the rest. */
  readonly operationHandlers: OperationHandlers;
  /**
   * The background sync a host runs (the desktop app, `outpost serve`) while it runs; absent in plain tests and
   * one-shot CLI commands, where SyncNow is FAILED_PRECONDITION.
   */
  syncController(): SyncController | undefined;
}

/** Handlers by operation name; each takes the request its operation's schema validated. */
export interface OperationHandlers {
  readonly [operation: string]: ((ctx: RequestContext, request: never) => unknown) | undefined;
}

/** What the sync operations need of a running scheduler. */
export interface SyncController {
  /** Starts a run now, or joins the one in progress (does not wait for it). */
  syncNow(): void;
  /** The remote or its key was (re)configured: clear an authentication stop and sync soon. */
  remoteChanged(): Promise<void>;
  /** The remote is about to be removed: stop background runs (a run in progress is aborted). */
  remoteRemoved(): Promise<void>;
}

/** The remote profile as the sync operations see it. */
/** What a link keeps beside its URL and key until a sync applies it (sync/pendingAdoption.ts). */
export interface LinkChoices {
  /** Send the records made before the link to this remote organization with the first sync (AdoptPreLinkRecords). */
  readonly adoptPreLinkRecords?: { readonly organizationId: string };
}

export interface RemoteProfileStore {
  read(): Promise<SyncRemote | undefined>;
  /**
   * The URL (normalized) and key a link to `baseUrl` would use (`apiKey` undefined: the stored one); refuses what
   * save would refuse before any check (a demo profile, another remote while one is linked, no key).
   */
  candidate(baseUrl: string, apiKey: string | undefined): Promise<{ baseUrl: string; apiKey: string }>;
  /**
   * Links the database (it becomes a replica) or replaces the key; `apiKey` undefined keeps the stored one. `verify`
   * runs on the candidate before anything is stored: its failure stores nothing; what it returns is stored with the
   * link (a new link keeps only that; the same link with a new key keeps an earlier choice it does not replace).
   */
  save(
    baseUrl: string,
    apiKey: string | undefined,
    verify?: (candidate: { baseUrl: string; apiKey: string }) => Promise<LinkChoices>,
  ): Promise<SyncRemote>;
  /** Forgets the URL, the key and what was chosen with them; the replica's data, outbox and identity stay. */
  remove(): Promise<void>;
}

/** The outbox hook invoke() calls on a sync replica. */
export interface WriteRecorder {
  /** Replaces ids of offline-created records the remote has since created (stale local ids) in a validated request. */
  translate(name: string, request: unknown): unknown;
  /** Whether the operation is a replicated write. */
  records(name: string): boolean;
  /** Runs the write and appends its outbox entry in the same transaction. */
  run(ctx: RequestContext, name: string, request: unknown, call: () => unknown): unknown;
}

export interface EngineOptions {
  /** Who opens the directory, named to a second process that finds it in use (default: 'outpost'). */
  readonly holder?: { command: string; url?: string };
}

/** The opened database a replica is assembled on. */
export interface OpenedDatabase {
  readonly db: Db;
  readonly dataDir: string;
}

/** Assembles sync's part of the engine on the opened database (sync/replica.ts syncReplica). */
export type ReplicaAssembly<R extends ReplicaCapabilities> = (opened: OpenedDatabase) => R;

export interface RequestContext {
  readonly engine: Engine;
  readonly db: Db;
  readonly caller: Caller;
  /** `http://host:port` the request arrived at (HTTP only), for absolute URLs in responses. */
  readonly origin?: string;
  /** Set by invoke() on a list whose rows the organization's Cedar policies decide one by one (listPage's gate). */
  readonly rowGate?: RowGate;
  /** The transport writes a services/common/jsonText.ts JsonText result as it is (HTTP); others want wire objects. */
  readonly acceptsJsonText?: boolean;
}

export const DATABASE_FILE = 'outpost.sqlite';

export { defaultDataDir };

/** Set once a remote is linked: the database is a sync replica, whose replicated writes must reach the outbox. */
export const REPLICA_SETTING = 'sync.replica';

export function isReplica(db: Db): boolean {
  return db.setting(REPLICA_SETTING) === '1';
}

/**
 * Opens the data directory's database for this process alone (DataDirBusyError, naming the holder, if another
 * holds it), with sync's part when `replica` assembles it (sync/replica.ts syncReplica).
 */
export function openEngine(dataDir?: string, options?: EngineOptions): Engine;
export function openEngine<R extends ReplicaCapabilities>(
  dataDir: string,
  options: EngineOptions & { readonly replica: ReplicaAssembly<R> },
): Engine & { readonly replica: R };
export function openEngine(
  dataDir: string = defaultDataDir(),
  options: EngineOptions & { readonly replica?: ReplicaAssembly<ReplicaCapabilities> } = {},
): Engine {
  const lock = acquireDataDirLock(dataDir, options.holder ?? { command: 'outpost' });
  let db: Db;
  try {
    db = openDatabase(join(dataDir, DATABASE_FILE), { migrationData: { defaultPolicy: defaultPolicyRecord } });
  } catch (e) {
    lock.release();
    throw e;
  }
  let replica: ReplicaCapabilities | undefined;
  try {
    replica = options.replica?.({ db, dataDir });
  } catch (e) {
    db.close();
    lock.release();
    throw e;
  }
  removeLeftoverTempFiles(dataDir);
  return {
    db,
    dataDir,
    pageTokenSecret: db.setting('page_token_secret')!,
    replica,
    lock,
    close: () => {
      try {
        db.close();
      } finally {
        lock.release();
      }
    },
  };
}
