// One Outpost process owns a data directory at a time (the desktop engine
// host, `outpost serve`, `outpost sync`, `outpost seed`, `outpost keys`).
//
// The lock is an OS-level file lock: a small SQLite file held open by a
// connection in EXCLUSIVE locking mode inside a write transaction. SQLite takes
// a POSIX advisory lock (fcntl; LockFileEx on Windows) on it, which the
// operating system drops when the process ends in any way, `kill -9` and a
// power cut included, so a dead holder never blocks the next process. Within
// one process SQLite tracks locks per file too, so a second open here is
// refused like one from elsewhere.
//
// Who holds it (pid, command, URL of `outpost serve`) is written beside it in
// a JSON file, read only to name the holder in messages and to find a running
// server to delegate to; the lock itself is the only truth about whether the
// directory is held.
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { nativeBinding } from './database';

export const LOCK_FILE = 'outpost.lock';
export const HOLDER_FILE = 'outpost.lock.json';

export interface HolderInfo {
  readonly pid: number;
  /** What holds it: 'serve', 'sync', 'seed', 'keys', 'desktop', ... */
  readonly command: string;
  /** `outpost serve`: where its API answers (set once it listens). */
  readonly url?: string;
  readonly host: string;
  readonly since: string;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: HolderInfo | undefined,
  ) {
    super(`${dataDir} is in use by ${describeHolder(holder)}; stop it or use another --data`);
    this.name = 'DataDirBusyError';
  }
}

/** `outpost serve (pid 1234, http://127.0.0.1:4280)`, or as much of it as is known. */
export function describeHolder(holder: HolderInfo | undefined): string {
  if (!holder) return 'another Outpost process';
  const details = [`pid ${holder.pid}`, ...(holder.url ? [holder.url] : [])].join(', ');
  const who = CLI_COMMANDS.has(holder.command)
    ? `outpost ${holder.command}`
    : holder.command === 'desktop'
      ? 'the Outpost desktop app'
      : 'another Outpost process';
  return `${who} (${details})`;
}

const CLI_COMMANDS = new Set(['serve', 'sync', 'seed', 'keys']);

export interface DataDirLock {
  readonly dataDir: string;
  /** Records more about the holder (e.g. the URL `outpost serve` listens on). */
  update(extra: { url?: string }): void;
  release(): void;
}

/** Creates the data directory private to its user (0700): it holds the database and API keys. */
export function ensureDataDir(dataDir: string): void {
  if (existsSync(dataDir)) return;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
}

function tryLock(dataDir: string): Database | undefined {
  const file = join(dataDir, LOCK_FILE);
  const conn = new BetterSqlite3(file, { ...nativeBinding(), timeout: 0 });
  try {
    chmodSync(file, 0o600);
    conn.pragma('locking_mode = EXCLUSIVE');
    // A write transaction takes the file's exclusive lock; in EXCLUSIVE mode it is kept after the transaction.
    conn.exec('BEGIN EXCLUSIVE');
    return conn;
  } catch (e) {
    conn.close();
    if ((e as { code?: string }).code === 'SQLITE_BUSY') return undefined;
    throw e;
  }
}

function writeHolder(dataDir: string, info: HolderInfo): void {
  const file = join(dataDir, HOLDER_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

function readHolderFile(dataDir: string): HolderInfo | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, HOLDER_FILE), 'utf8')) as HolderInfo;
  } catch {
    return undefined;
  }
}

/** Takes the data directory's lock for this process, or throws DataDirBusyError naming the holder. */
export function acquireDataDirLock(dataDir: string, holder: { command: string; url?: string }): DataDirLock {
  ensureDataDir(dataDir);
  const conn = tryLock(dataDir);
  if (!conn) throw new DataDirBusyError(dataDir, readHolderFile(dataDir));
  let info: HolderInfo = {
    pid: process.pid,
    command: holder.command,
    ...(holder.url ? { url: holder.url } : {}),
    host: hostname(),
    since: new Date().toISOString(),
  };
  writeHolder(dataDir, info);
  let released = false;
  return {
    dataDir,
    update(extra) {
      if (released) return;
      info = { ...info, ...extra };
      writeHolder(dataDir, info);
    },
    release() {
      if (released) return;
      released = true;
      // The holder file goes first: whoever takes the lock next writes its own.
      if (readHolderFile(dataDir)?.pid === process.pid) rmSync(join(dataDir, HOLDER_FILE), { force: true });
      conn.close();
    },
  };
}

/**
 * Who holds the data directory now, or undefined when no process does. Checks the lock itself (a holder file
 * left by a killed process names nobody).
 */
export function currentHolder(dataDir: string): HolderInfo | undefined {
  if (!existsSync(join(dataDir, LOCK_FILE))) return undefined;
  const conn = tryLock(dataDir);
  if (conn) {
    conn.close();
    return undefined;
  }
  return readHolderFile(dataDir) ?? { pid: 0, command: 'unknown', host: hostname(), since: '' };
}
