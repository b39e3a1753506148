// Annotation logs as a replicated resource. Logs are immutable (no update
// operation), so applying a remote log is insert-if-missing. A log we created
// offline has no marker field (a comment body cannot carry one): a remote log
// is recognised as ours by (annotation, kind, author, content, created after
// our first send) while our create is in flight with an unknown outcome.
import { AnnotationLogKind, AnnotationLogState, type AnnotationLog } from '../../../../src-shared/api/annotationLogs';
import { SEND_TIME_SLACK, wireMicros } from '../../time';
import type { LoadedIds } from '../../../db/bulkLoad';
import type { Db } from '../../../db/database';
import { cachedPerDb, type Applier, type ApplyContext } from '../../apply';
import { finishEntry } from '../../outbox';
import { adoptLog, logContent } from '../annotations/historyLogs';
import { AnnotationLogRowWriter, type AnnotationLogRowValues } from '../../../services/annotations/annotationLogStore';

export interface InflightLogCreate {
  seq: number;
  annotationId: string;
  localLogId: string;
  content: string;
  since: number | null;
}

/** CreateAnnotationLog entries that were sent at least once and are not confirmed. */
export function inflightLogCreates(db: Db): InflightLogCreate[] {
  return db
    .all<{ seq: number; request: string; created_ids: string; first_sent_server_time: number | null }>(
      "SELECT seq, request, created_ids, first_sent_server_time FROM sync_outbox WHERE operation = 'CreateAnnotationLog' AND state = 'inflight'",
    )
    .map((r) => {
      const req = JSON.parse(r.request);
      const created = JSON.parse(r.created_ids) as { id: string }[];
      return {
        seq: r.seq,
        annotationId: req.annotationId,
        localLogId: created[0]?.id ?? '',
        content: logContent(req),
        since: r.first_sent_server_time,
      };
    });
}

/** Whether a remote log is the one an in-flight create of ours may have made. */
export function matchesInflight(c: InflightLogCreate, log: AnnotationLog, userId: string): boolean {
  if (log.annotationId !== c.annotationId || log.createdByUserId !== userId) return false;
  if (c.since !== null && (wireMicros(log.createdDate) ?? 0) < c.since - SEND_TIME_SLACK) return false;
  return logContent(log) === c.content;
}

export class LogWriter {
  private readonly exists;
  private readonly annotation;
  private readonly rows: AnnotationLogRowWriter;
  private readonly pkCache = new Map<string, { pk: number; organization_id: string } | undefined>();

  private readonly annotationsByIds;

  constructor(private readonly db: Db) {
    this.annotationsByIds = db.raw.prepare('SELECT id, pk, organization_id FROM annotations WHERE id IN (SELECT value FROM json_each(?))');
    this.exists = db.raw.prepare('SELECT 1 FROM annotation_logs WHERE id = ?').pluck();
    this.annotation = db.raw.prepare('SELECT pk, organization_id FROM annotations WHERE id = ?');
    this.rows = new AnnotationLogRowWriter(db);
  }

  has(id: string): boolean {
    return this.exists.get(id) !== undefined;
  }

  annotationOf(id: string): { pk: number; organization_id: string } | undefined {
    let hit = this.pkCache.get(id);
    if (!hit) {
      hit = this.annotation.get(id) as { pk: number; organization_id: string } | undefined;
      if (hit) this.pkCache.set(id, hit);
    }
    return hit;
  }

  /** Ids change (offline-created annotations get their remote id): the cache lives for one page. */
  reset(): void {
    this.pkCache.clear();
  }

  /** A wire log's row as stored. */
  private rowOf(log: AnnotationLog, ann: { pk: number; organization_id: string }): AnnotationLogRowValues {
    return {
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
    };
  }

  insert(log: AnnotationLog): boolean {
    const ann = this.annotationOf(log.annotationId);
    if (!ann) return false;
    this.rows.insert(this.rowOf(log, ann));
    return true;
  }

  /** The annotations of a page's logs in one query (instead of one lookup per annotation). */
  private preloadAnnotations(list: readonly AnnotationLog[]): void {
    const ids = [...new Set(list.map((l) => l.annotationId))].filter((id) => !this.pkCache.has(id));
    if (ids.length === 0) return;
    for (const r of this.annotationsByIds.all(JSON.stringify(ids)) as { id: string; pk: number; organization_id: string }[]) {
      this.pkCache.set(r.id, { pk: r.pk, organization_id: r.organization_id });
    }
  }

  /**
   * Inserts a page's logs (those whose annotation is local) with multi-row statements; logs already held are
   * left alone (ids are unique, logs immutable). Returns how many were new and the annotation ids not local yet.
   * `loaded`: during an initial bulk load, the log ids it inserted so far (the id index is deferred; updated here).
   */
  insertMany(list: readonly AnnotationLog[], loaded?: LoadedIds): { inserted: number; missing: string[] } {
    this.preloadAnnotations(list);
    const missing = new Set<string>();
    const rows: AnnotationLogRowValues[] = [];
    const seen = new Set<string>();
    for (const log of list) {
      if (loaded && (loaded.has(log.annotationLogId) || seen.has(log.annotationLogId))) continue;
      const ann = this.annotationOf(log.annotationId);
      if (ann) {
        rows.push(this.rowOf(log, ann));
        seen.add(log.annotationLogId);
      } else missing.add(log.annotationId);
    }
    const inserted = this.rows.insertMany(rows, loaded);
    return { inserted, missing: [...missing] };
  }
}

/**
 * Applies remote logs (caller holds the transaction). Returns the ids of
 * annotations that are not local yet: the caller fetches them and applies the
 * page again (logs before their annotation are never skipped).
 */
export function applyAnnotationLogs(
  ctx: ApplyContext,
  list: readonly AnnotationLog[],
  writer = new LogWriter(ctx.db),
  loaded?: LoadedIds,
): string[] {
  writer.reset();
  let inflight: InflightLogCreate[] = inflightLogCreates(ctx.db);
  // Nothing of ours can be among them (the usual case, and every initial pull, whose `loaded` stands in for
  // the deferred id index): insert the page in bulk.
  if (inflight.length === 0 || loaded) {
    const { inserted, missing } = writer.insertMany(list, loaded);
    ctx.stats.inserted += inserted;
    const notLocal = new Set(missing);
    ctx.stats.unchanged += list.filter((l) => !notLocal.has(l.annotationId)).length - inserted;
    return missing;
  }
  const missing = new Set<string>();
  for (const log of list) {
    if (writer.has(log.annotationLogId)) {
      ctx.stats.unchanged++;
      continue;
    }
    const mine: InflightLogCreate | undefined = inflight.find((c) => matchesInflight(c, log, ctx.userId));
    if (mine) {
      adoptLog(ctx, mine.localLogId, log);
      finishEntry(ctx.db, mine.seq, 'done', { result: { annotationLogId: log.annotationLogId, adoptedBy: 'pull' } });
      inflight = inflight.filter((c) => c !== mine);
      ctx.stats.adopted++;
      continue;
    }
    if (writer.insert(log)) ctx.stats.inserted++;
    else missing.add(log.annotationId);
  }
  return [...missing];
}

const logWriterOf = cachedPerDb((db) => new LogWriter(db));

/** Applies remote logs in their own transaction; returns the ids of annotations they refer to that are not local yet. */
export function applyRemoteLogs(applier: Applier, list: readonly AnnotationLog[], loaded?: LoadedIds): string[] {
  return applier.db.tx(() => applyAnnotationLogs(applier.context(), list, logWriterOf(applier.db), loaded));
}
