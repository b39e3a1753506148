// Annotation logs as a replicated resource. Logs are immutable (no update
// operation), so applying a remote log is insert-if-missing. A log we created
// offline has no marker field (a comment body cannot carry one): a remote log
// is recognised as ours by (annotation, kind, author, content, created after
// our first send) while our create is in flight with an unknown outcome.
import { AnnotationLogKind, AnnotationLogState, type AnnotationLog } from '../../../../src-shared/api/annotationLogs';
import { wireMicros } from '../../time';
import type { LoadedIds } from '../../../db/bulkLoad';
import { cachedPerDb, type Applier, type ApplyContext } from '../../apply';
import { inflightSent, madeSince } from '../../inflightCreates';
import { finishEntry } from '../../outbox';
import type { StoredRequest } from '../../spec';
import { adoptLog, logContent } from '../annotations/historyLogs';
import { AnnotationLogRowWriter, type AnnotationLogRowValues } from '../../../services/annotations/annotationLogStore';

interface LocalAnnotation {
  id: string;
  pk: number;
  organization_id: string;
}

const statementsOf = cachedPerDb((db) => ({
  annotations: db.raw.prepare('SELECT id, pk, organization_id FROM annotations WHERE id IN (SELECT value FROM json_each(?))'),
  held: db.raw.prepare('SELECT 1 FROM annotation_logs WHERE id = ?').pluck(),
  rows: new AnnotationLogRowWriter(db),
}));

/** A wire log's row as stored. */
const rowOf = (log: AnnotationLog, ann: LocalAnnotation): AnnotationLogRowValues => ({
  id: log.annotationLogId,
  annotation_pk: ann.pk,
  annotation_id: log.annotationId,
  organization_id: ann.organization_id,
  kind: AnnotationLogKind.numbers[log.kind] ?? 0,
  created_by_user_id: log.createdByUserId,
  created_by_user_name: log.createdByUserName,
  created_date: wireMicros(log.createdDate),
  modified_date: wireMicros(log.modifiedDate),
  assigned_to_user_id: log.assigned ? log.assigned.assignedToUserId : null,
  assigned_to_user_email: log.assigned ? log.assigned.assignedToUserEmail : null,
  state: log.stateUpdate ? AnnotationLogState.numbers[log.stateUpdate.state] : null,
  comment_body: log.comment
    ? JSON.stringify(log.comment.body.map((e) => ({ type: e.type, text: e.text, userMention: e.userMention ?? null })))
    : null,
});

/**
 * Inserts logs whose annotation is local with multi-row statements (their annotations read in one query); logs
 * already held are left alone (ids are unique, logs immutable). `loaded`: during an initial bulk load, the log ids it
 * inserted so far (the id index is deferred; updated here).
 */
function insertLogs(ctx: ApplyContext, list: readonly AnnotationLog[], loaded?: LoadedIds): void {
  const st = statementsOf(ctx.db);
  const ids = [...new Set(list.map((l) => l.annotationId))];
  const local = new Map((st.annotations.all(JSON.stringify(ids)) as LocalAnnotation[]).map((a) => [a.id, a]));
  const missing = new Set<string>();
  const rows: AnnotationLogRowValues[] = [];
  const seen = new Set<string>();
  for (const log of list) {
    if (loaded && (loaded.has(log.annotationLogId) || seen.has(log.annotationLogId))) continue;
    const ann = local.get(log.annotationId);
    if (ann) {
      rows.push(rowOf(log, ann));
      seen.add(log.annotationLogId);
    } else missing.add(log.annotationId);
  }
  const inserted = st.rows.insertMany(rows, loaded);
  ctx.stats.inserted += inserted;
  // (A log whose annotation is not here is neither: the puller's prepare fetched the annotations it could.)
  ctx.stats.unchanged += list.filter((l) => !missing.has(l.annotationId)).length - inserted;
}

/**
 * Applies remote logs in their own transaction. One that an in-flight create of ours may have made (ours, same
 * annotation and content, made since it first left) is adopted by it; the others are inserted. Nothing of ours can
 * be among an initial pull's (whose `loaded` stands in for the deferred id index).
 */
export function applyRemoteLogs(applier: Applier, list: readonly AnnotationLog[], loaded?: LoadedIds): void {
  applier.db.tx(() => {
    const ctx = applier.context();
    let inflight = loaded ? [] : inflightSent<StoredRequest<'CreateAnnotationLog'>>(ctx.db, 'CreateAnnotationLog');
    const others = list.filter((log) => {
      if (inflight.length === 0 || statementsOf(ctx.db).held.get(log.annotationLogId) !== undefined) return true;
      const mine = inflight.find(
        (c) =>
          log.annotationId === c.request.annotationId && madeSince(log, c.since, ctx.userId) && logContent(log) === logContent(c.request),
      );
      if (!mine) return true;
      adoptLog(ctx, mine.localId, log);
      finishEntry(ctx.db, mine.seq, 'done', { result: { annotationLogId: log.annotationLogId, adoptedBy: 'pull' } });
      inflight = inflight.filter((c) => c !== mine);
      ctx.stats.adopted++;
      return false;
    });
    insertLogs(ctx, others, loaded);
  });
}
