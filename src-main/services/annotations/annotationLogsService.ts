// Annotation logs: the activity history (comments, state updates, assignments).
// Creating a STATE_UPDATE or ASSIGNED log applies it to the annotation, and
// changing state or assignee through UpdateAnnotation appends the matching log,
// so history and current values never disagree.
import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import {
  AnnotationLogKind,
  AnnotationLogState,
  type AnnotationLog,
  type AnnotationLogKindName,
  type AnnotationLogStateName,
  type CreateAnnotationLogInput,
} from '../../../src-shared/api/annotationLogs';
import { AnnotationState, type AnnotationStateName } from '../../../src-shared/api/annotations';
import { formatTimestamp, nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { organizationIds, visibleTo } from '../../auth/caller';
import type { Raw } from './annotationPageQueries';
import { setAnnotationColumns } from './annotationStore';
import { deleteAnnotationLogByPk, insertAnnotationLog } from './annotationLogStore';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { resolveMember } from '../reference/resolve';
import { annotationLogListSpec } from './annotationLogListSpec';
import { keptAnnotationRow, type AnnotationRow } from './annotationRows';

interface LogRow {
  pk: number;
  id: string;
  annotation_id: string;
  kind: number;
  created_by_user_id: string;
  created_by_user_name: string;
  created_date: number;
  modified_date: number;
  assigned_to_user_id: string | null;
  assigned_to_user_email: string | null;
  state: number | null;
  comment_body: string | null;
}

const kindByNumber = new Map(AnnotationLogKind.names.map((n) => [AnnotationLogKind.numbers[n], n]));
const logStateByNumber = new Map(AnnotationLogState.names.map((n) => [AnnotationLogState.numbers[n], n]));

/** AnnotationState -> AnnotationLogState (the log enum is shifted by CREATED). */
export function logStateFor(state: AnnotationStateName): AnnotationLogStateName {
  return state.replace('ANNOTATION_STATE_', 'ANNOTATION_LOG_STATE_') as AnnotationLogStateName;
}

function annotationStateFor(state: AnnotationLogStateName): AnnotationStateName | undefined {
  if (state === 'ANNOTATION_LOG_STATE_CREATED' || state === 'ANNOTATION_LOG_STATE_UNSPECIFIED') return undefined;
  return state.replace('ANNOTATION_LOG_STATE_', 'ANNOTATION_STATE_') as AnnotationStateName;
}

interface CommentElement {
  type: string;
  text: string;
  userMention: { userId: string; userEmail: string } | null;
}

function wireLog(
  id: string,
  annotationId: string,
  kindNumber: number,
  createdByUserId: string,
  createdByUserName: string,
  createdDate: number,
  modifiedDate: number,
  assignedToUserId: string | null,
  assignedToUserEmail: string | null,
  state: number | null,
  commentBody: string | null,
): AnnotationLog {
  const kind = kindByNumber.get(kindNumber) ?? 'ANNOTATION_LOG_KIND_UNSPECIFIED';
  const log: AnnotationLog = {
    annotationLogId: id,
    createdDate: formatTimestamp(createdDate),
    modifiedDate: formatTimestamp(modifiedDate),
    annotationId,
    kind,
    createdByUserId,
    createdByUserName,
  };
  if (kind === 'ANNOTATION_LOG_KIND_ASSIGNED')
    log.assigned = { assignedToUserId: assignedToUserId ?? '', assignedToUserEmail: assignedToUserEmail ?? '' };
  else if (kind === 'ANNOTATION_LOG_KIND_STATE_UPDATE')
    log.stateUpdate = { state: logStateByNumber.get(state ?? 0) ?? 'ANNOTATION_LOG_STATE_UNSPECIFIED' };
  else if (kind === 'ANNOTATION_LOG_KIND_COMMENT')
    log.comment = { body: JSON.parse(commentBody ?? '[]') as CommentElement[] } as AnnotationLog['comment'];
  return log;
}

const logToWire = (r: LogRow): AnnotationLog =>
  wireLog(
    r.id,
    r.annotation_id,
    r.kind,
    r.created_by_user_id,
    r.created_by_user_name,
    r.created_date,
    r.modified_date,
    r.assigned_to_user_id,
    r.assigned_to_user_email,
    r.state,
    r.comment_body,
  );

/** One stored log as the API shows it (no visibility check: for the engine's own bookkeeping). */
export function loadLog(db: Db, id: string): AnnotationLog | undefined {
  const row = db.get<LogRow>('SELECT * FROM annotation_logs WHERE id = ?', [id]);
  return row && logToWire(row);
}

// A list page's rows in raw mode (arrays): better-sqlite3 builds a named-property object per row through the
// V8 API, which cost ~5 us per listed log, most of ListAllAnnotationLogs' handler (bench/listing.ts).
const PAGE_COLUMNS =
  'pk, id, annotation_id, kind, created_by_user_id, created_by_user_name, created_date, modified_date, assigned_to_user_id, assigned_to_user_email, state, comment_body';
const pageStatements = new WeakMap<Db, Statement>();

function pageRowsOf(db: Db, pks: readonly number[]): Raw[] {
  let st = pageStatements.get(db);
  if (!st) {
    st = db.raw.prepare(`SELECT ${PAGE_COLUMNS} FROM annotation_logs WHERE pk IN (SELECT value FROM json_each(?))`).raw(true);
    pageStatements.set(db, st);
  }
  return st.all(JSON.stringify(pks)) as Raw[];
}

export interface NewLog {
  kind: AnnotationLogKindName;
  assignedToUserId?: string;
  assignedToUserEmail?: string;
  state?: AnnotationLogStateName;
  comment?: CommentElement[];
}

/** Appends a log row (inside the caller's transaction). */
export function appendLog(
  db: Db,
  annotation: Pick<AnnotationRow, 'pk' | 'id' | 'organization_id'>,
  userId: string,
  userName: string,
  log: NewLog,
  at = nowMicros(),
): LogRow {
  const row: LogRow = {
    pk: 0,
    id: randomUUID(),
    annotation_id: annotation.id,
    kind: AnnotationLogKind.numbers[log.kind],
    created_by_user_id: userId,
    created_by_user_name: userName,
    created_date: at,
    modified_date: at,
    assigned_to_user_id: log.assignedToUserId ?? null,
    assigned_to_user_email: log.assignedToUserEmail ?? null,
    state: log.state ? AnnotationLogState.numbers[log.state] : null,
    comment_body: log.comment ? JSON.stringify(log.comment) : null,
  };
  row.pk = insertAnnotationLog(db, {
    id: row.id,
    annotation_pk: annotation.pk,
    annotation_id: annotation.id,
    organization_id: annotation.organization_id,
    kind: row.kind,
    created_by_user_id: userId,
    created_by_user_name: userName,
    created_date: at,
    modified_date: at,
    assigned_to_user_id: row.assigned_to_user_id,
    assigned_to_user_email: row.assigned_to_user_email,
    state: row.state,
    comment_body: row.comment_body,
  });
  return row;
}

export function findVisibleAnnotation(ctx: RequestContext, annotationId: string): AnnotationRow {
  // A batch read its records' rows once (annotationBatchRead.ts): the same answer as the query below.
  const kept = keptAnnotationRow(ctx.db, annotationId);
  if (kept) {
    if (!organizationIds(ctx.caller).includes(kept.organization_id)) throw ApiError.notFound('annotation', annotationId);
    return kept;
  }
  const scope = visibleTo(ctx.caller, 'organization_id');
  const row = ctx.db.get<AnnotationRow>(`SELECT * FROM annotations WHERE id = ? AND ${scope.sql}`, [annotationId, ...scope.params]);
  if (!row) throw ApiError.notFound('annotation', annotationId);
  return row;
}

function commentElements(
  ctx: RequestContext,
  organizationId: string,
  input: NonNullable<CreateAnnotationLogInput['comment']>,
): CommentElement[] {
  return input.body.map((el, i) => {
    const field = `comment.body[${i}]`;
    if (el.type === 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT') {
      if (el.text === undefined) throw ApiError.invalid(`${field}.text`, 'is required for a TEXT element');
      return { type: el.type, text: el.text, userMention: null };
    }
    if (el.type === 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_USER_MENTION') {
      if (!el.userMention) throw ApiError.invalid(`${field}.user_mention`, 'is required for a USER_MENTION element');
      const email = resolveMember(ctx.db, organizationId, el.userMention.userId, `${field}.user_mention.user_id`);
      return { type: el.type, text: el.text ?? '', userMention: { userId: el.userMention.userId, userEmail: email } };
    }
    throw ApiError.invalid(`${field}.type`, 'must be TEXT or USER_MENTION');
  });
}

export function createAnnotationLog(ctx: RequestContext, req: CreateAnnotationLogInput): { annotationLog: AnnotationLog } {
  return ctx.db.tx(() => {
    const annotation = findVisibleAnnotation(ctx, req.annotationId);
    const set = (['assigned', 'stateUpdate', 'comment'] as const).filter((k) => req[k] !== undefined);
    const expected = {
      ANNOTATION_LOG_KIND_COMMENT: 'comment',
      ANNOTATION_LOG_KIND_STATE_UPDATE: 'stateUpdate',
      ANNOTATION_LOG_KIND_ASSIGNED: 'assigned',
    } as const;
    if (req.kind === 'ANNOTATION_LOG_KIND_UNSPECIFIED') throw ApiError.invalid('kind', 'must be COMMENT, STATE_UPDATE or ASSIGNED');
    const want = expected[req.kind];
    if (set.length !== 1 || set[0] !== want) {
      throw ApiError.invalid(
        want === 'stateUpdate' ? 'state_update' : want,
        `kind ${req.kind} requires exactly the '${want}' properties (got ${set.length ? set.join(', ') : 'none'})`,
      );
    }
    const now = nowMicros();
    let log: NewLog;
    if (req.kind === 'ANNOTATION_LOG_KIND_COMMENT') {
      log = { kind: req.kind, comment: commentElements(ctx, annotation.organization_id, req.comment!) };
    } else if (req.kind === 'ANNOTATION_LOG_KIND_STATE_UPDATE') {
      const state = annotationStateFor(req.stateUpdate!.state);
      if (!state) throw ApiError.invalid('state_update.state', 'must be OPEN, FLAGGED or RESOLVED');
      if (annotation.annotation_type === 2) throw ApiError.invalid('state_update.state', 'a PHASE annotation has no state');
      setAnnotationColumns(ctx.db, annotation.pk, {
        state: AnnotationState.numbers[state],
        modified_date: now,
        modified_by_user_id: ctx.caller.userId,
      });
      log = { kind: req.kind, state: req.stateUpdate!.state };
    } else {
      const userId = req.assigned!.assignedToUserId;
      const email = userId ? resolveMember(ctx.db, annotation.organization_id, userId, 'assigned.assigned_to_user_id') : '';
      setAnnotationColumns(ctx.db, annotation.pk, {
        assigned_to_user_id: userId,
        modified_date: now,
        modified_by_user_id: ctx.caller.userId,
      });
      log = { kind: req.kind, assignedToUserId: userId, assignedToUserEmail: email };
    }
    return { annotationLog: logToWire(appendLog(ctx.db, annotation, ctx.caller.userId, ctx.caller.userName, log, now)) };
  });
}

export function listAnnotationLogs(ctx: RequestContext, req: ListParams & { annotationId?: string }) {
  let scope;
  if (req.annotationId) {
    const annotation = findVisibleAnnotation(ctx, req.annotationId);
    scope = { sql: 't.annotation_pk = ?', params: [annotation.pk], fingerprint: [annotation.id] };
  } else {
    const visible = visibleTo(ctx.caller, 't.organization_id');
    scope = { ...visible, fingerprint: [''], gate: ctx.rowGate };
  }
  const page = listPage(ctx.db, annotationLogListSpec, req, scope, ctx.engine.pageTokenSecret);
  const byPk = new Map<number, AnnotationLog>();
  for (const r of pageRowsOf(ctx.db, page.keys))
    byPk.set(r[0], wireLog(r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11]));
  return { annotationLogs: page.keys.map((k) => byPk.get(k)!), nextPageToken: page.nextPageToken };
}

export function deleteAnnotationLog(ctx: RequestContext, req: { annotationId: string; annotationLogId: string }) {
  return ctx.db.tx(() => {
    const annotation = findVisibleAnnotation(ctx, req.annotationId);
    const log = ctx.db.get<LogRow>('SELECT * FROM annotation_logs WHERE id = ? AND annotation_pk = ?', [
      req.annotationLogId,
      annotation.pk,
    ]);
    if (!log) throw ApiError.notFound('annotation log', req.annotationLogId);
    if (log.created_by_user_id !== ctx.caller.userId) throw ApiError.permissionDenied('only the author may delete an annotation log');
    deleteAnnotationLogByPk(ctx.db, log.pk);
    return {};
  });
}
