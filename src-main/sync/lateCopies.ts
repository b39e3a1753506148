// A create whose outcome was unknown, looked up, not found and sent again may
// still have a copy coming: the remote can be working on the earlier attempt
// long after the client stopped waiting for it (an import parses and copies a
// whole file before its report appears; a killed or timed-out client is gone
// by then). No lookup can rule that out, and the API has no idempotency key,
// so such a create is watched once it is done: for WATCH_MS its spec's
// `lateCopies` looks for further copies of it (ours, made since its first
// send, held by no local record), and each one found is removed from the
// remote and logged as a `duplicate` conflict. The pulls leave a copy a watch
// may take alone meanwhile (taken in, it would be a record of its own).
import type { Db } from '../db/database';
import { recordConflict } from './conflicts';
import { remoteIdOf } from './idMap';
import type { ResourceCatalog } from './catalog';
import type { SyncSession } from './session';
import type { LateCopies, OpSpec, PushContext } from './spec';

/** How long a create sent again after a lookup found nothing is watched for a late copy of an earlier attempt. */
export const WATCH_MS = 60 * 60_000;

/** A done create that is watched: what identifies its copies (its spec's key), since when (server micros), until when (epoch ms). */
export interface Watch {
  readonly key: unknown;
  readonly since: number | null;
  readonly until: number;
}

/** The watch of a create about to be sent again after its lookup found nothing (undefined: its spec has none). */
export function watchFor(p: PushContext, spec: OpSpec, entry: Parameters<LateCopies['key']>[1], since: number | null): Watch | undefined {
  const key = spec.lateCopies?.key(p, entry);
  return key === undefined ? undefined : { key, since, until: Date.now() + WATCH_MS };
}

/** The keys of the watched creates of `operations` (the pulls leave records matching one of them alone). */
export function watchedKeys(db: Db, operations: readonly string[]): unknown[] {
  return watched(db, operations).map((w) => w.watch.key);
}

function watched(db: Db, operations: readonly string[]): { seq: number; operation: string; kept: string; watch: Watch }[] {
  if (operations.length === 0) return [];
  return db
    .all<{ seq: number; operation: string; created_ids: string; watch: string }>(
      `SELECT seq, operation, created_ids, json_extract(result, '$.lateCopies') AS watch FROM sync_outbox
       WHERE state = 'done' AND operation IN (SELECT value FROM json_each(?)) AND json_extract(result, '$.lateCopies.until') > ?
       ORDER BY seq`,
      [JSON.stringify(operations), Date.now()],
    )
    .map((r) => {
      const made = (JSON.parse(r.created_ids) as { id: string }[])[0]?.id ?? '';
      return { seq: r.seq, operation: r.operation, kept: remoteIdOf(db, made) ?? made, watch: JSON.parse(r.watch) as Watch };
    });
}

/** Operations whose spec watches for late copies. */
export const watchingOperations = (c: ResourceCatalog): string[] => c.replicatedOperations().filter((op) => c.specFor(op)?.lateCopies);

/**
 * Removes the late copies of the watched creates (all of them, or entry `onlySeq`'s) and logs each; returns how many.
 * A failure leaves the rest for the next run (a warning): the watch goes on.
 */
export async function removeLateCopies(s: SyncSession, c: ResourceCatalog, p: PushContext, onlySeq?: number): Promise<number> {
  let removed = 0;
  for (const w of watched(s.db, watchingOperations(c))) {
    if (onlySeq !== undefined && w.seq !== onlySeq) continue;
    const late = c.specFor(w.operation)!.lateCopies!;
    try {
      for (const id of await late.find(p, w.watch.key, w.watch.since)) {
        await late.remove(p, id);
        s.db.tx(() =>
          recordConflict(s.db, {
            kind: 'duplicate',
            resource: late.resource,
            recordId: id,
            field: '*',
            winner: 'local',
            localValue: w.kept,
            remoteValue: id,
            message: `an earlier attempt of #${w.seq} (${w.operation}) reached the remote after it was sent again and made a second copy of ${w.kept} there; the copy was deleted`,
          }),
        );
        removed++;
      }
    } catch (e) {
      s.throwIfAborted();
      s.event({ type: 'warning', message: `looking for late copies of #${w.seq} (${w.operation}) failed: ${(e as Error).message}` });
    }
  }
  return removed;
}
