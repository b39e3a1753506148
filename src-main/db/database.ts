// The one way the main process reaches SQLite: a better-sqlite3 connection in
// WAL mode with foreign keys, migrated at open, with a statement cache and a
// transaction helper. Services receive a Db; nothing else opens the file.
import BetterSqlite3 from 'better-sqlite3';
import type { Database as RawDatabase, Statement } from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { registerStepPathFunction } from './encodings/stepPathKey';
import { restoreIndexes } from './bulkLoad';
import { migrations as allMigrations } from './migrations/index';
import type { Migration, MigrationData } from './migrations/types';
import { setUpConnection } from './sqlFunctions';
import { DatabaseUnusableError } from './storageErrors';

export type SqlValue = string | number | bigint | null | Buffer;
export type Params = readonly SqlValue[] | Record<string, SqlValue>;

export class Db {
  readonly raw: RawDatabase;
  private readonly cache = new Map<string, Statement>();
  /** One transaction function for every tx(): better-sqlite3 builds a new one per transaction() call (~5% of a batch's time). */
  private readonly inTransaction: <T>(fn: () => T) => T;

  constructor(raw: RawDatabase) {
    this.raw = raw;
    this.inTransaction = raw.transaction((fn: () => unknown) => fn()) as <T>(fn: () => T) => T;
  }

  statement(sql: string): Statement {
    let st = this.cache.get(sql);
    if (!st) {
      st = this.raw.prepare(sql);
      if (this.cache.size > 2000) this.cache.clear();
      this.cache.set(sql, st);
    }
    return st;
  }

  all<T = Record<string, unknown>>(sql: string, params: Params = []): T[] {
    return this.statement(sql).all(params as never) as T[];
  }

  get<T = Record<string, unknown>>(sql: string, params: Params = []): T | undefined {
    return this.statement(sql).get(params as never) as T | undefined;
  }

  run(sql: string, params: Params = []) {
    return this.statement(sql).run(params as never);
  }

  /** tx() calls inside joined() join its transaction (no savepoint of their own). */
  private joinDepth = 0;

  /** Runs fn in one transaction (nested calls become savepoints, except inside joined()). */
  tx<T>(fn: () => T): T {
    return this.joinDepth > 0 ? fn() : this.inTransaction(fn);
  }

  /**
   * Runs synchronous fn in one transaction (a savepoint of an open one) that the tx() calls inside it join instead
   * of opening savepoints of their own (two per record of a batch cost ~7% of its time): any failure inside fails
   * all of fn. For work that is all or none anyway, such as a batch whose every item's error fails the batch.
   */
  joined<T>(fn: () => T): T {
    return this.inTransaction(() => {
      if (this.joinDepth++ === 0) this.joinedValues = new Map();
      try {
        return fn();
      } finally {
        if (--this.joinDepth === 0) this.joinedValues = undefined;
      }
    });
  }

  /** What the code inside the outermost joined() keeps for its length, by its owner's key (joinedValue). */
  private joinedValues: Map<object, unknown> | undefined;

  /**
   * A value kept for the length of the current joined() call (undefined outside one), made by `make` on first use:
   * rows a batch reads once for all its items. It dies with the transaction it was read in, so nothing another
   * transaction writes can make it stale; the writers inside the batch keep it right (each owner's own store).
   */
  joinedValue<T>(key: object, make: () => T): T | undefined {
    const values = this.joinedValues;
    if (!values) return undefined;
    let value = values.get(key) as T | undefined;
    if (value === undefined) values.set(key, (value = make()));
    return value;
  }

  setting(key: string): string | undefined {
    return this.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', [key])?.value;
  }

  setSetting(key: string, value: string): void {
    this.run('INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, value]);
  }

  /**
   * Refreshes the query planner's statistics where tables changed a lot
   * (SQLite's recommended `PRAGMA optimize`, bounded by analysis_limit). Without
   * statistics SQLite guesses plans, and relation filters can pick a full index walk.
   */
  optimize(): void {
    this.raw.pragma('optimize');
  }

  close(): void {
    try {
      this.optimize();
    } catch {
      /* read-only or busy: statistics are an optimization only */
    }
    this.cache.clear();
    this.raw.close();
  }
}

export function schemaVersion(raw: RawDatabase): number {
  return raw.pragma('user_version', { simple: true }) as number;
}

/**
 * Runs `fn` (which opens its own transaction) with foreign-key checks off: for a table rebuild in a migration
 * (dropping the old table must not cascade to its children), and for a bulk load's pages, whose rows reference
 * parents the same load just inserted or looked up (the per-row probes cost ~15% of an initial pull's annotation
 * inserts, bench/sync.ts). The pragma is a no-op inside a transaction, hence around it; `fn` is synchronous, so no
 * other request's write runs unchecked in between.
 */
export function withoutForeignKeyChecks<T>(raw: RawDatabase, fn: () => T): T {
  if (raw.inTransaction || !raw.pragma('foreign_keys', { simple: true })) return fn();
  raw.pragma('foreign_keys = OFF');
  try {
    return fn();
  } finally {
    raw.pragma('foreign_keys = ON');
  }
}

/**
 * Runs `fn` (which opens its own transaction) with its COMMIT at synchronous=NORMAL: the WAL is not synced
 * there. Only for a write that can be redone, such as an initial pull's page, whose cursor commits with it (a
 * page a power cut takes is pulled again). Nothing acknowledged loses durability: `fn` is synchronous, so no
 * other write commits in between, and the next FULL commit syncs the WAL with this one in it.
 */
export function withoutCommitSync<T>(raw: RawDatabase, fn: () => T): T {
  const previous = raw.pragma('synchronous', { simple: true }) as number;
  if (raw.inTransaction || previous <= 1) return fn();
  raw.pragma('synchronous = NORMAL');
  try {
    return fn();
  } finally {
    raw.pragma(`synchronous = ${previous}`);
  }
}

/** Applies every migration newer than the file's user_version, each in its own transaction. */
export function migrate(raw: RawDatabase, list: readonly Migration[] = allMigrations, data: MigrationData = {}): number {
  let current = schemaVersion(raw);
  const latest = list.length ? list[list.length - 1].version : 0;
  if (current > latest) {
    // Nothing is touched: an older Outpost must not write to a schema it does not know.
    throw new DatabaseUnusableError(
      `database schema version ${current} is newer than this Outpost (${latest}): it was written by a newer Outpost; install that version (nothing was changed)`,
    );
  }
  for (const m of list) {
    if (m.version <= current) continue;
    const step = raw.transaction(() => {
      if (m.sql) raw.exec(m.sql);
      m.up?.(raw, data);
      if (m.foreignKeysOff) {
        const broken = raw.pragma('foreign_key_check') as unknown[];
        if (broken.length) throw new Error(`migration ${m.version} (${m.name}) would leave ${broken.length} broken foreign keys`);
      }
      raw.pragma(`user_version = ${m.version}`);
    });
    if (m.foreignKeysOff) withoutForeignKeyChecks(raw, step);
    else step();
    current = m.version;
  }
  return current;
}

export interface OpenOptions {
  /** Stop after this migration version (tests of upgrades from earlier versions). */
  migrateTo?: number;
  /** What migrations take from the layers above (openEngine passes it; a fresh database needs none). */
  migrationData?: MigrationData;
}

/**
 * True when this code runs from inside an asar archive, i.e. in the packaged app: electron-builder packs the
 * bundles into app.asar, and the onlyLoadAppFromAsar fuse makes Electron load the app from nowhere else. An
 * environment variable cannot move the code, so it cannot fake this either way.
 */
export function runsFromAsar(moduleUrl: string = import.meta.url): boolean {
  return /[\\/]app\.asar[\\/]/.test(decodeURIComponent(moduleUrl));
}

/**
 * The better-sqlite3 binary the desktop launcher built for Electron's ABI (scripts/start-desktop.mjs names it in
 * OUTPOST_SQLITE_BINDING); Node (tests, `outpost serve`) uses the module npm built. Honoured only when not
 * packaged: a packaged app loads the module it was packed with, never one named by its environment (which
 * would run any native code beside the NODE_OPTIONS fuse).
 */
export function nativeBinding(env: NodeJS.ProcessEnv = process.env, moduleUrl?: string): { nativeBinding: string } | undefined {
  const path = env.OUTPOST_SQLITE_BINDING;
  return path && !runsFromAsar(moduleUrl) ? { nativeBinding: path } : undefined;
}

/**
 * Refuses a database file that cannot be used as it is, with what to do about it: a zero-length file (SQLite
 * would take it for a new, empty database and the user's records would silently be gone) and a file SQLite
 * cannot read as a database. Damaged pages further in are found when read (DATA_LOSS, storageErrors.ts): a
 * full check at every open would cost seconds per GB.
 */
function checkExistingFile(file: string): void {
  if (!existsSync(file)) return;
  const wal = `${file}-wal`;
  if (statSync(file).size === 0 && !(existsSync(wal) && statSync(wal).size > 0)) {
    throw new DatabaseUnusableError(
      `${file} is empty (0 bytes): it was probably truncated, and opening it would start an empty database; restore it from a backup, or delete it to start over`,
    );
  }
}

function unusable(file: string, e: unknown): never {
  const code = (e as { code?: string }).code ?? '';
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    throw new DatabaseUnusableError(
      `${file} is not a readable Outpost database (${(e as Error).message}); move the data directory aside and restore it from a backup (or recover a copy with sqlite3's .recover)`,
    );
  }
  throw e;
}

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    checkExistingFile(file);
  }
  const raw = new BetterSqlite3(file, nativeBinding());
  try {
    // The header and the schema must read (a damaged first page is NOTADB here, not later in a request).
    raw.prepare('SELECT count(*) FROM sqlite_schema').get();
  } catch (e) {
    raw.close();
    unusable(file, e);
  }
  // The database holds the user's records and API key hashes: readable by its owner only (SQLite gives the
  // -wal and -shm files the database file's permissions).
  if (file !== ':memory:') chmodSync(file, 0o600);
  raw.pragma('journal_mode = WAL');
  // Acknowledged means durable: FULL syncs the WAL at every commit, so a write answered 200 survives a power cut
  // (NORMAL lets the last commits roll back). Group commit (groupCommit.ts) shares one sync among the writes of an
  // event-loop turn; bench/durability.ts prints what it costs.
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('cache_size = -65536');
  setUpConnection(raw);
  registerStepPathFunction(raw);
  raw.pragma('analysis_limit = 1000');
  // 0x10002: also analyze tables that have never been analyzed (cheap with analysis_limit).
  raw.pragma('optimize = 0x10002');
  const list = options.migrateTo === undefined ? allMigrations : allMigrations.filter((m) => m.version <= options.migrateTo!);
  migrate(raw, list, options.migrationData);
  const db = new Db(raw);
  restoreIndexes(db); // a bulk load interrupted by a crash left indexes dropped
  if (!db.setting('page_token_secret')) db.setSetting('page_token_secret', randomBytes(32).toString('base64'));
  return db;
}
