// The history logs of annotation writes, and what identifies a log across the
// replica and the remote. A local CreateAnnotation / UpdateAnnotation appends
// history logs as a side effect; the annotation specs settle them when the
// remote answers. The annotation-log resource (../annotationLogs/) builds on
// these: logs belong to annotations, so that folder imports this one.
import type { AnnotationLog } from '../../../../src-shared/api/annotationLogs';
import { SEND_TIME_SLACK, wireMicros } from '../../time';
import type { Db } from '../../../db/database';
import { canonical } from '../../canonical';
import { mapLocalId, unclaimed, type IdMapContext } from '../../idMap';
import { loadLog } from '../../../services/annotations/annotationLogsService';
import { deleteAnnotationLogById, setAnnotationLogRemoteDetails } from '../../../services/annotations/annotationLogStore';

export const ANNOTATION_LOG = 'annotation_log';

/** A comment body element as a request or a log carries it. */
interface CommentElement {
  readonly type: string;
  readonly text?: string;
  readonly userMention?: { readonly userId?: string } | null;
}

/** The comparable content of a log: kind + the one property its kind carries. */
export function logContent(log: {
  kind: string;
  assigned?: { assignedToUserId?: string };
  stateUpdate?: { state?: string };
  comment?: { body: readonly CommentElement[] };
}): string {
  if (log.kind === 'ANNOTATION_LOG_KIND_COMMENT') {
    return canonical({
      kind: log.kind,
      body: (log.comment?.body ?? []).map((e) => ({ type: e.type, text: e.text ?? '', user: e.userMention?.userId ?? '' })),
    });
  }
  if (log.kind === 'ANNOTATION_LOG_KIND_STATE_UPDATE') return canonical({ kind: log.kind, state: log.stateUpdate?.state ?? '' });
  return canonical({ kind: log.kind, user: log.assigned?.assignedToUserId ?? '' });
}

/** Points a local log at the remote one that represents it (id, dates, author name, assignee email). */
export function adoptLog(ctx: IdMapContext, localLogId: string, log: AnnotationLog): void {
  const { db } = ctx;
  mapLocalId(ctx, ANNOTATION_LOG, localLogId, log.annotationLogId);
  setAnnotationLogRemoteDetails(db, log.annotationLogId, {
    createdDate: wireMicros(log.createdDate),
    modifiedDate: wireMicros(log.modifiedDate),
    createdByUserName: log.createdByUserName,
    assignedToUserEmail: log.assigned?.assignedToUserEmail ?? null,
  });
}

// ---- history logs of our own writes -----------------------------------------
// A local CreateAnnotation / UpdateAnnotation appends history logs (CREATED,
// STATE_UPDATE, ASSIGNED) as a side effect, and so does the remote when the
// write is pushed. Removing ours and letting the pull bring the remote's would
// report our own change as news; instead ours takes the identity of the
// remote's, in the transaction that completes the write, so the pull finds it held.

const HISTORY_KINDS: ReadonlySet<string> = new Set(['ANNOTATION_LOG_KIND_STATE_UPDATE', 'ANNOTATION_LOG_KIND_ASSIGNED']);

/**
 * Whether a remote log may be the history log the remote wrote for a write of ours that it answered at `answeredAt`
 * (the annotation's modified_date in the answer). No lower bound here beyond the lookup's (the local edit's time):
 * a resent write (its first answer lost) changes nothing the second time, so its log is the one the first send made,
 * however long ago.
 */
export function mayEchoOurWrite(log: AnnotationLog, userId: string, answeredAt: number): boolean {
  return (
    HISTORY_KINDS.has(log.kind) &&
    log.createdByUserId === userId &&
    (wireMicros(log.createdDate) ?? Infinity) <= answeredAt + SEND_TIME_SLACK
  );
}

function storedContent(db: Db, id: string): string | undefined {
  const log = loadLog(db, id);
  return log && logContent(log);
}

/**
 * Deletes the history logs a local write appended (its entry's side-effect logs) when the remote will not write
 * its own for that write here: it wrote them (the pull brings them), refused the write, or the write was given up.
 */
export function deleteSideEffectLogs(db: Db, ids: readonly string[]): void {
  for (const id of ids) deleteAnnotationLogById(db, id);
}

/**
 * Settles the history logs entry `seq` appended locally, now that the remote has done its write: each adopts the
 * remote's log with the same content (`echoes`: candidates from mayEchoOurWrite; the newest wins, the one this write
 * made), or is removed when there is none (the remote had that value already and wrote no log, or the lookup failed:
 * the pull then brings whatever the remote has). Caller holds the transaction.
 */
export function settleSideEffectLogs(ctx: IdMapContext, seq: number, localIds: readonly string[], echoes: readonly AnnotationLog[]): void {
  const { db } = ctx;
  const newestFirst = [...echoes].sort((x, y) => (wireMicros(y.createdDate) ?? 0) - (wireMicros(x.createdDate) ?? 0));
  for (const id of localIds) {
    const content = storedContent(db, id);
    if (content === undefined) continue;
    const echo = newestFirst.find((l) => logContent(l) === content && unclaimed(db, 'annotation_logs', l.annotationLogId));
    if (!echo) {
      deleteAnnotationLogById(db, id);
      continue;
    }
    // The mapping lets a UI still holding our id reach the adopted log (translateIds).
    db.run('INSERT OR IGNORE INTO sync_id_map(local_id, resource, remote_id, created_by_seq) VALUES (?, ?, NULL, ?)', [
      id,
      ANNOTATION_LOG,
      seq,
    ]);
    adoptLog(ctx, id, echo);
  }
}
