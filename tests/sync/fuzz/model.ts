// The fuzzer's model of what was written, shared by every resource it drives
// (annotations, artifacts, test reports, saved searches, policies), and the
// "nothing lost" rule that judges each write against the remote's final state
// and the conflict logs.
import { canonical } from '../../../src-main/sync/canonical';
import type { Replica } from '../helpers';

export const REMOTE = 'remote';

export class FuzzError extends Error {}

/**
 * Records in the order of their fuzz ids (then ids), not their UUIDs': a seed then picks the same records when replayed,
 * so a failure found by the soak can be replayed (up to the timing of kills and faults).
 */
export const byFuzzId = (a: { id: string; fuzzId: string }, b: { id: string; fuzzId: string }): number =>
  a.fuzzId < b.fuzzId ? -1 : a.fuzzId > b.fuzzId ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** One field value written by a replica or by the online colleague (`REMOTE`). */
export interface Write {
  readonly writer: string;
  readonly step: number;
  /** The record's fuzz identity: `f…` annotations, `a…` artifacts, `r…` test reports. */
  readonly fuzzId: string;
  readonly field: string;
  readonly value: string;
  /** The writer's value of the field just before (undefined for a create). */
  readonly prev?: string;
  /**
   * Part of an edit the remote refuses (a refused rename): it need not survive, but it may (its other values go
   * with a refused create retried as its record now is), and it overwrites earlier values knowingly like any other.
   */
  readonly mayBeRefused?: boolean;
}

/** What a resource module gets from the world: the shared random stream, the replicas and the write log. */
export interface FuzzContext {
  readonly seed: number;
  readonly rand: () => number;
  pick<T>(xs: readonly T[]): T;
  readonly replicas: readonly Replica[];
  /** The current step (for ids and names that say when they were made). */
  step(): number;
  /** Logs one field value written (value and prev are canonicalized here). */
  record(writer: string, fuzzId: string, field: string, value: unknown, prev?: unknown): void;
  /** Annotations a replica holds that the fuzzer made: their id there and fuzz id (offline-created ones included). */
  knownAnnotations(r: Replica): { id: string; fuzzId: string }[];
  nextId(prefix: string): string;
}

/** Bytes drawn from the seeded stream, so a seed replays the same content (`size` bytes). */
export function seededBytes(rand: () => number, size: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = Math.floor(rand() * 256);
  return b;
}

/** A replica's id for a record, translated to the remote's through any replica's id map (an offline-created id). */
export function remoteIdOf(replicas: readonly Replica[], id: string): string {
  for (const r of replicas) {
    const row = r.engine.db.get<{ remote_id: string | null }>('SELECT remote_id FROM sync_id_map WHERE local_id = ?', [id]);
    if (row?.remote_id) return row.remote_id;
  }
  return id;
}

/**
 * Nothing lost: every value written is the final value, or lost a logged conflict (`losers` holds
 * `fuzzId\0field\0value`), or was overwritten by a writer who could have seen it.
 * `final` gives the remote's final value of a write's field (canonical); `explain` adds detail to a failure.
 */
export function checkNothingLost(
  writes: readonly Write[],
  syncStarts: ReadonlyMap<string, number[]>,
  final: (w: Write) => string,
  losers: ReadonlySet<string>,
  fail: (why: string) => never,
  explain: (w: Write) => string = () => '',
): void {
  const firstSyncAfter = (writer: string, s: number) => (writer === REMOTE ? s : (syncStarts.get(writer) ?? []).find((x) => x > s));
  for (const w of writes) {
    if (w.mayBeRefused) continue;
    const now = final(w);
    if (now === w.value) continue;
    if (losers.has(`${w.fuzzId}\u0000${w.field}\u0000${w.value}`)) continue;
    const visible = firstSyncAfter(w.writer, w.step);
    // Three-way merge: a writer whose base already held w's value and changed it applies cleanly over w
    // (w was a no-op for them, or came back to their base value: A-B-A), provided it could reach the remote after w.
    const mergedOver = writes.some(
      (o) =>
        o !== w &&
        o.fuzzId === w.fuzzId &&
        o.field === w.field &&
        o.prev === w.value &&
        o.value !== w.value &&
        visible !== undefined &&
        (o.writer === REMOTE ? o.step > visible : (syncStarts.get(o.writer) ?? []).some((s) => s > o.step && s > visible)),
    );
    if (mergedOver) continue;
    const knowing = writes.some(
      (o) =>
        o !== w &&
        o.fuzzId === w.fuzzId &&
        o.field === w.field &&
        o.step > w.step &&
        (o.writer === w.writer ||
          (visible !== undefined &&
            (o.writer === REMOTE ? o.step > visible : (syncStarts.get(o.writer) ?? []).some((s) => s > visible && s < o.step)))),
    );
    if (!knowing) {
      const history = writes.filter((o) => o.fuzzId === w.fuzzId && o.field === w.field).map((o) => `${o.step}:${o.writer}=${o.value}`);
      fail(
        `edit lost: ${w.writer} set ${w.field} of ${w.fuzzId} to ${w.value} at step ${w.step}; final ${now}, no conflict logged\n` +
          `  writes: ${history.join(' ')}\n  syncs: ${JSON.stringify(Object.fromEntries(syncStarts))}\n  ${explain(w)}`,
      );
    }
  }
}

/** Field conflicts a replica logged for one resource. */
export const fieldConflicts = (r: Replica, resource: string) =>
  r.engine.db.all<{ record_id: string; field: string; winner: string; local_value: string | null; remote_value: string | null }>(
    "SELECT record_id, field, winner, local_value, remote_value FROM sync_conflicts WHERE kind = 'field' AND resource = ?",
    [resource],
  );

export const loserOf = (c: { winner: string; local_value: string | null; remote_value: string | null }): unknown => {
  const v = c.winner === 'remote' ? c.local_value : c.remote_value;
  return v === null ? null : JSON.parse(v);
};

/** The losing values of a resource's field conflicts on every replica, as `fuzzId\0field\0value` (the "nothing lost" rule's form), and how many. */
export function conflictLosers(
  replicas: readonly Replica[],
  resource: string,
  fuzzIdOf: (recordId: string) => string | undefined,
): { losers: Set<string>; conflicts: number } {
  const losers = new Set<string>();
  let conflicts = 0;
  for (const r of replicas) {
    for (const c of fieldConflicts(r, resource)) {
      conflicts++;
      losers.add(`${fuzzIdOf(c.record_id)}\u0000${c.field}\u0000${canonical(loserOf(c))}`);
    }
  }
  return { losers, conflicts };
}

/**
 * Records no field of which can say which they are (every field editable, no marker): each is tracked by the id its
 * writer got (`made`: fuzz id -> writer and id), and the writer's id map gives the remote's id once its push mapped it.
 */
export function trackedByWriterId(replicas: readonly Replica[]) {
  const made = new Map<string, { writer: string; id: string }>();
  const remoteId = (e: { writer: string; id: string }) =>
    e.writer === REMOTE
      ? e.id
      : (replicas
          .find((r) => r.name === e.writer)!
          .engine.db.get<{ remote_id: string | null }>('SELECT remote_id FROM sync_id_map WHERE local_id = ?', [e.id])?.remote_id ?? e.id);
  /** Fuzz id of a record id held somewhere (undefined: another replica's create whose push has not learned its remote id yet). */
  const fuzzIdOf = (id: string) => {
    for (const [f, e] of made) if (e.id === id || remoteId(e) === id) return f;
    return undefined;
  };
  return { made, remoteId, fuzzIdOf };
}

export { canonical };
