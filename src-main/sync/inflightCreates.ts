// Creates of ours that left with no answer yet (in flight: a lost response, a
// killed process), met by a pull of a resource whose records carry no marker
// (saved searches, policies). A listed record not held here may be the copy
// such a create made. Taken in as a record of its own, it would be "claimed"
// when the push looks for that copy after the unknown outcome, and the create
// would be sent again: a duplicate on the remote. Adopted, the local record
// becomes it (mapped, the create done), as a pulled annotation is adopted by
// its marker and a pulled log by its content (annotationLogs.ts).
import type { ApplyContext } from './apply';
import { mapLocalId } from './idMap';
import { finishEntry } from './outbox';

/**
 * The first in-flight `operation` entry whose request the remote record copies (`isCopy`, given the request and when
 * it first left, server micros) is mapped to `remoteId` and done. Returns whether one was.
 */
export function adoptInflightCreate(
  ctx: ApplyContext,
  operation: string,
  resource: string,
  remoteId: string,
  isCopy: (request: any, since: number | null) => boolean,
): boolean {
  const entries = ctx.db.all<{ seq: number; request: string; created_ids: string; first_sent_server_time: number | null }>(
    "SELECT seq, request, created_ids, first_sent_server_time FROM sync_outbox WHERE operation = ? AND state = 'inflight' ORDER BY seq",
    [operation],
  );
  for (const e of entries) {
    if (!isCopy(JSON.parse(e.request), e.first_sent_server_time)) continue;
    const [{ id: localId }] = JSON.parse(e.created_ids) as { id: string }[];
    mapLocalId(ctx.db, resource, localId, remoteId);
    finishEntry(ctx.db, e.seq, 'done', { result: { id: remoteId, adoptedBy: 'pull' } });
    ctx.stats.adopted++;
    return true;
  }
  return false;
}
