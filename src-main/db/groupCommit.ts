// Group commit: for API writes (http/server.ts) and for the push's completed
// entries and in-flight marks (sync/push.ts). Each write request is one SQLite transaction,
// and its COMMIT (WAL frames for every page it dirtied, locks) costs more than
// the write itself: ~160 us of an UpdateAnnotation's ~400 us (profile of
// bench/sync.ts push, where a client keeps 16 writes in flight). Writes that
// are ready in the same turn of the event loop run back to back inside one
// BEGIN IMMEDIATE ... COMMIT: each request's own transaction becomes a
// savepoint (better-sqlite3 nests them), so a request that fails rolls back
// alone, exactly as before. No response leaves before the COMMIT that made its
// write durable; if that COMMIT fails, every request of the group fails.
//
// The group runs synchronously from BEGIN to COMMIT, so nothing else on the
// connection (a background sync, another request) can slip into it; the part
// of an asynchronous handler after its first await runs after the COMMIT, in
// its own transaction, as it always did.
import { ApiError } from '../../src-shared/errors';
import type { Db } from './database';

interface Pending {
  readonly run: () => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

export class GroupCommit {
  private queue: Pending[] = [];

  constructor(private readonly db: Db) {}

  /** Runs `run` (an invoke of a write) in the next group; settles once the group committed. */
  submit<T>(run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.push({ run, resolve: resolve as (v: unknown) => void, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const group = this.queue.splice(0);
    const raw = this.db.raw;
    const oneByOne = () => {
      for (const p of group) p.run().then(p.resolve, p.reject);
    };
    if (group.length === 1 || raw.inTransaction) return oneByOne();
    try {
      raw.exec('BEGIN IMMEDIATE');
    } catch {
      return oneByOne(); // another process holds the write lock past busy_timeout: each request reports its own outcome
    }
    const results = group.map((p) => p.run());
    let failure: unknown;
    if (!raw.inTransaction) {
      // SQLite rolled the whole transaction back (I/O error, disk full): earlier requests' writes are gone too.
      failure = ApiError.internal();
    } else {
      try {
        raw.exec('COMMIT');
      } catch (e) {
        failure = e;
        try {
          if (raw.inTransaction) raw.exec('ROLLBACK');
        } catch {
          /* nothing left to undo */
        }
      }
    }
    group.forEach((p, i) => {
      if (failure === undefined) results[i].then(p.resolve, p.reject);
      else {
        results[i].catch(() => {});
        p.reject(failure);
      }
    });
  }
}

const groups = new WeakMap<Db, GroupCommit>();

export function groupCommitFor(db: Db): GroupCommit {
  let g = groups.get(db);
  if (!g) groups.set(db, (g = new GroupCommit(db)));
  return g;
}
