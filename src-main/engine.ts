// The engine: one open profile database plus what every request needs. The
// HTTP server, the Electron IPC bridge, the CLI and the sync worker all run
// operations through an Engine.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Caller } from './auth/caller';
import { openDatabase, type Db } from './db/database';
import { createOutboxRecorder, isReplica } from './sync/outbox';

export interface Engine {
  readonly db: Db;
  readonly dataDir: string;
  /** Secret that signs page tokens (per database). */
  readonly pageTokenSecret: string;
  /** Set when this database is a sync replica: records replicated writes in the outbox (see sync/outbox.ts). */
  readonly writeRecorder?: WriteRecorder;
  close(): void;
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
  /** Open as a sync replica (default: the database's own `sync.replica` setting, set when a remote is linked). */
  readonly replica?: boolean;
}

export interface RequestContext {
  readonly engine: Engine;
  readonly db: Db;
  readonly caller: Caller;
  /** `http://host:port` the request arrived at (HTTP only), for absolute URLs in responses. */
  readonly origin?: string;
}

export const DATABASE_FILE = 'outpost.sqlite';

/** The per-user data directory: XDG on Linux, the platform's app-data folder elsewhere. */
export function defaultDataDir(): string {
  if (process.env.OUTPOST_DATA_DIR) return process.env.OUTPOST_DATA_DIR;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Outpost');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Outpost');
  return join(process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'outpost');
}

export function openEngine(dataDir: string = defaultDataDir(), options: EngineOptions = {}): Engine {
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  return {
    db,
    dataDir,
    pageTokenSecret: db.setting('page_token_secret')!,
    writeRecorder: (options.replica ?? isReplica(db)) ? createOutboxRecorder(db) : undefined,
    close: () => db.close(),
  };
}
