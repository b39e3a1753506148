// Creates of ours that left with no answer yet (in flight: a lost response, a
// killed process), for the resources whose records carry no marker (saved
// searches, policies): a remote record may be the copy such a create made.
//
// It is recognised by its content (what the create sent), and failing that by
// when and by whom it was made: ours, within the create's send window (from
// its first send to its last send plus the time a request may take to land).
// Content alone is not enough: a colleague may edit the copy (a rename) before
// we learn of it, days later after a lost response, and a create sent again
// would then make a second record.
//
// A pull that lists such a copy adopts it when its content matches (the local
// record is mapped to it, the create done), as a pulled annotation is adopted
// by its marker and a log by its content. One that only falls within a send
// window is left alone for the push's lookup, which tells a single candidate
// from several; taken in as a record of its own, it would be "held locally"
// when that lookup runs, and the create would be sent again.
import type { ApplyContext } from './apply';
import { mapLocalId, unclaimed } from './idMap';
import { finishEntry, type SendWindow } from './outbox';
import { SEND_TIME_SLACK } from './resources/annotationLogs';
import { wireMicros } from './time';

interface Made {
  readonly createdByUserId: string;
  readonly createdDate?: string;
}

/** Whether a remote record was made by us within a create's send window (bounds unknown: no). */
export function madeInWindow(w: SendWindow, r: Made, userId: string): boolean {
  if (r.createdByUserId !== userId || w.from === null || w.until === null) return false;
  const at = wireMicros(r.createdDate) ?? 0;
  return at >= w.from - SEND_TIME_SLACK && at <= w.until + SEND_TIME_SLACK;
}

/**
 * The push's lookup after an unknown outcome: the unclaimed record whose content matches (`isCopy`), else the only
 * unclaimed one we made within the send window; several such and none matching: none (the create is sent again).
 */
export function pickCopy<T extends Made>(
  records: readonly T[],
  idOf: (r: T) => string,
  table: string,
  ctx: { db: ApplyContext['db']; userId: string },
  window: SendWindow,
  isCopy: (r: T) => boolean,
): T | undefined {
  const free = records.filter((r) => unclaimed(ctx.db, table, idOf(r)));
  const exact = free.find(isCopy);
  if (exact) return exact;
  const made = free.filter((r) => madeInWindow(window, r, ctx.userId));
  return made.length === 1 ? made[0] : undefined;
}

/** What the pull does with a listed record that is not held here. */
export type Arrival = 'adopted' | 'left' | 'new';

/**
 * The first in-flight `operation` entry whose request the remote record copies (`isCopy`, given the request and when
 * it first left, server micros) is mapped to `remoteId` and done ('adopted'). A record of ours within an in-flight
 * create's send window that matches none is 'left' for the push's lookup; any other is 'new'.
 */
export function adoptInflightCreate(
  ctx: ApplyContext,
  operation: string,
  resource: string,
  record: Made & { readonly id: string },
  isCopy: (request: any, since: number | null) => boolean,
): Arrival {
  const entries = ctx.db.all<{ seq: number; request: string; created_ids: string; first_sent_server_time: number | null; result: string | null }>(
    "SELECT seq, request, created_ids, first_sent_server_time, result FROM sync_outbox WHERE operation = ? AND state = 'inflight' ORDER BY seq",
    [operation],
  );
  for (const e of entries) {
    if (!isCopy(JSON.parse(e.request), e.first_sent_server_time)) continue;
    const [{ id: localId }] = JSON.parse(e.created_ids) as { id: string }[];
    mapLocalId(ctx.db, resource, localId, record.id);
    finishEntry(ctx.db, e.seq, 'done', { result: { id: record.id, adoptedBy: 'pull' } });
    ctx.stats.adopted++;
    return 'adopted';
  }
  const windows = entries.map((e): SendWindow => ({ from: e.first_sent_server_time, until: (e.result ? (JSON.parse(e.result) as { sentUntil?: number }).sentUntil : undefined) ?? null }));
  return windows.some((w) => madeInWindow(w, record, ctx.userId)) ? 'left' : 'new';
}
