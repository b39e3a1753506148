// Authenticated callers, cached per connection. Every API request resolves its
// key (a SHA-256, the key row, the user, the memberships: three statements);
// a client pushing thousands of edits asks the same question each time. An
// entry stays valid while nothing it was read from changed:
// api_keys, users, memberships and organizations changed neither on this
// connection nor by another (db/tableWatch.ts: a sync's identity pull, key
// creation, `outpost keys ...` beside a running `outpost serve`).
import type { Db } from '../db/database';
import { sameStamp, watchTables, type Stamp } from '../db/tableWatch';
import type { Caller } from './caller';

const WATCHED_TABLES = ['api_keys', 'users', 'memberships', 'organizations'] as const;
const MAX_ENTRIES = 256;

interface Entry {
  readonly caller: Caller;
  readonly stamp: Stamp;
}

const caches = new WeakMap<Db, Map<string, Entry>>();

const watchOf = (db: Db) => watchTables(db, 'callers', WATCHED_TABLES);

export function cachedCaller(db: Db, token: string): Caller | undefined {
  const hit = caches.get(db)?.get(token);
  const watch = watchOf(db);
  if (!hit || !watch) return undefined;
  if (sameStamp(hit.stamp, watch.stamp())) return hit.caller;
  caches.get(db)!.delete(token);
  return undefined;
}

/** Remembers a caller read just now (no write in between: call right after reading). */
export function rememberCaller(db: Db, token: string, caller: Caller): void {
  const watch = watchOf(db);
  if (!watch) return; // e.g. a read-only connection: no cache, every request reads the tables
  let entries = caches.get(db);
  if (!entries) caches.set(db, (entries = new Map()));
  if (entries.size >= MAX_ENTRIES) entries.clear();
  entries.set(token, { caller, stamp: watch.stamp() });
}
