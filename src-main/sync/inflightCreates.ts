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
import type { Db } from '../db/database';
import type { ApplyContext } from './apply';
import { mapLocalId, unclaimed } from './idMap';
import { finishEntry, windowOf, type SendWindow } from './outbox';
import { SEND_TIME_SLACK, wireMicros } from './time';
import type { OutboxEntry } from './types';

interface Made {
  readonly createdByUserId: string;
  readonly createdDate?: string;
}

const madeAt = (r: Made) => wireMicros(r.createdDate) ?? 0;

/** Whether a remote record was made by us at or after a create first left (`since`, server micros; unknown: any time). */
export function madeSince(r: Made, since: number | null, userId: string): boolean {
  return r.createdByUserId === userId && (since === null || madeAt(r) >= since - SEND_TIME_SLACK);
}

/** Whether a remote record was made by us within a create's send window (bounds unknown: no). */
function madeInWindow(w: SendWindow, r: Made, userId: string): boolean {
  return w.from !== null && w.until !== null && madeSince(r, w.from, userId) && madeAt(r) <= w.until + SEND_TIME_SLACK;
}

/** A create that left: what it sent, when it first left (server micros) and its send window. */
export interface SentCreate<Req = unknown> {
  readonly request: Req;
  readonly since: number | null;
  readonly window: SendWindow;
}

/** The in-flight entries of a create operation, oldest first (the test-report pulls read theirs here too). */
export function inflightSent<Req = unknown>(
  db: Db,
  operation: string,
): (SentCreate<Req> & { readonly seq: number; readonly localId: string })[] {
  return db
    .all<{ seq: number; request: string; created_ids: string; first_sent_server_time: number | null; result: string | null }>(
      "SELECT seq, request, created_ids, first_sent_server_time, result FROM sync_outbox WHERE operation = ? AND state = 'inflight' ORDER BY seq",
      [operation],
    )
    .map((e) => ({
      seq: e.seq,
      localId: (JSON.parse(e.created_ids) as { id: string }[])[0]?.id ?? '',
      // (Every entry of one operation keeps that operation's request.)
      request: JSON.parse(e.request) as Req,
      since: e.first_sent_server_time,
      window: windowOf(e),
    }));
}

/**
 * The push's lookup after an unknown outcome of create `entry`, among the remote's `records`: the unclaimed record
 * whose content matches (`isCopy`), else the only unclaimed one we made within its send window that no other create
 * in flight may have made (by content or by timing: two windows overlap when both left in one push, and a create
 * that never landed must not take the copy of one that did). Several such, or none: none (the create is sent again;
 * a duplicate at worst).
 */
export function pickCopy<T extends Made, Req>(
  records: readonly T[],
  idOf: (r: T) => string,
  table: string,
  ctx: { db: Db; userId: string },
  entry: Omit<OutboxEntry, 'request'> & { readonly request: Req },
  isCopy: (request: Req, since: number | null, r: T) => boolean,
): T | undefined {
  const sent = inflightSent<Req>(ctx.db, entry.operation);
  // (An entry not in flight has no send window: content only.)
  const self: SentCreate<Req> = sent.find((e) => e.seq === entry.seq) ?? {
    request: entry.request,
    since: entry.firstSentServerTime,
    window: { from: null, until: null },
  };
  const others = sent.filter((e) => e.seq !== entry.seq);
  const free = records.filter((r) => unclaimed(ctx.db, table, idOf(r)));
  const exact = free.find((r) => isCopy(self.request, self.since, r));
  if (exact) return exact;
  const theirs = (r: T) => others.some((o) => isCopy(o.request, o.since, r) || madeInWindow(o.window, r, ctx.userId));
  const made = free.filter((r) => madeInWindow(self.window, r, ctx.userId) && !theirs(r));
  return made.length === 1 ? made[0] : undefined;
}

/** What the pull does with a listed record that is not held here. */
export type Arrival = 'adopted' | 'left' | 'new';

/**
 * The first in-flight `operation` entry whose request the remote record copies (`isCopy`, given the request and when
 * it first left, server micros) is mapped to `remoteId` and done ('adopted'). A record of ours within an in-flight
 * create's send window that matches none is 'left' for the push's lookup; any other is 'new'.
 */
export function adoptInflightCreate<Req>(
  ctx: ApplyContext,
  operation: string,
  resource: string,
  record: Made & { readonly id: string },
  isCopy: (request: Req, since: number | null) => boolean,
): Arrival {
  const sent = inflightSent<Req>(ctx.db, operation);
  const mine = sent.find((e) => isCopy(e.request, e.since));
  if (mine) {
    mapLocalId(ctx, resource, mine.localId, record.id);
    finishEntry(ctx.db, mine.seq, 'done', { result: { id: record.id, adoptedBy: 'pull' } });
    ctx.stats.adopted++;
    return 'adopted';
  }
  return sent.some((e) => madeInWindow(e.window, record, ctx.userId)) ? 'left' : 'new';
}
