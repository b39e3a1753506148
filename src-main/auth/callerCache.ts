// Authenticated callers, cached per connection. Every API request resolves its
// key (a SHA-256, the key row, the user, the memberships: three statements);
// a client pushing thousands of edits asks the same question each time. An
// entry stays valid while nothing it was read from changed:
// - writes on this connection to api_keys, users, memberships or organizations
//   bump a counter through TEMP triggers (a sync's identity and reference pulls,
//   key creation, seeding all write there);
// - writes by other connections or processes (`outpost keys ...` beside a
//   running `outpost serve`) change `PRAGMA data_version`.
// A rolled-back write still bumps the counter: at worst one extra lookup.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database';
import type { Caller } from './caller';

const WATCHED_TABLES = ['api_keys', 'users', 'memberships', 'organizations'] as const;
const MAX_ENTRIES = 256;

interface Entry {
  readonly caller: Caller;
  readonly generation: number;
  readonly dataVersion: number;
}

interface CallerCache {
  generation: number;
  readonly dataVersion: Statement;
  readonly entries: Map<string, Entry>;
}

const caches = new WeakMap<Db, CallerCache>();

function cacheOf(db: Db): CallerCache | undefined {
  let cache = caches.get(db);
  if (cache) return cache;
  try {
    const created: CallerCache = { generation: 0, dataVersion: db.raw.prepare('PRAGMA data_version').pluck(), entries: new Map() };
    db.raw.function('outpost_auth_changed', { deterministic: false }, () => {
      created.generation++;
      return null;
    });
    for (const table of WATCHED_TABLES) {
      for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
        db.raw.exec(
          `CREATE TEMP TRIGGER IF NOT EXISTS outpost_auth_${table}_${op.toLowerCase()} AFTER ${op} ON main.${table} BEGIN SELECT outpost_auth_changed(); END`,
        );
      }
    }
    cache = created;
  } catch {
    return undefined; // e.g. a read-only connection: no cache, every request reads the tables
  }
  caches.set(db, cache);
  return cache;
}

export function cachedCaller(db: Db, token: string): Caller | undefined {
  const cache = cacheOf(db);
  const hit = cache?.entries.get(token);
  if (!cache || !hit) return undefined;
  if (hit.generation === cache.generation && hit.dataVersion === (cache.dataVersion.get() as number)) return hit.caller;
  cache.entries.delete(token);
  return undefined;
}

/** Remembers a caller read just now (no write in between: call right after reading). */
export function rememberCaller(db: Db, token: string, caller: Caller): void {
  const cache = cacheOf(db);
  if (!cache) return;
  if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
  cache.entries.set(token, { caller, generation: cache.generation, dataVersion: cache.dataVersion.get() as number });
}
