// How the annotation and annotation-log writes are recorded and replayed.
//
// Idempotency without server keys: an offline CreateAnnotation carries the
// metadata entry `outpost_client_id = <local id>` on the remote, so a create
// whose outcome is unknown is looked up by that marker (CEL metadata filter,
// or a newest-first scan back to the first send when filters are
// unavailable) before any retry. A CreateAnnotationLog cannot carry a marker:
// it is looked up among the annotation's logs by (kind, author, content,
// created at or after the first send) and not already known locally.
// Updates, archives and deletes are idempotent and simply retried.
//
// The history logs a create or update appended locally (CREATED, STATE_UPDATE,
// ASSIGNED) adopt the ones the remote wrote for the same change, listed right
// after the remote answered (resources/annotationLogs.ts settleSideEffectLogs).
import type { Annotation } from '../../../src-shared/api/annotations';
import type { AnnotationLog } from '../../../src-shared/api/annotationLogs';
import { formatTimestamp, parseTimestamp } from '../../../src-shared/api/time';
import { mapLocalId, unclaimed } from '../idMap';
import { ANNOTATION, CLIENT_ID_KEY, markerOf } from '../resources/annotations';
import { adoptLog, ANNOTATION_LOG, deleteSideEffectLogs, logContent, mayEchoOurWrite, SEND_TIME_SLACK, settleSideEffectLogs } from '../resources/annotationLogs';
import { wireMicros } from '../time';
import type { OpSpec, OutboxEntry, PushContext, Target } from '../types';
import { filterUnsupported, findByClientMarker, listAll, quote, type MarkerLookup } from './remoteQuery';
import { compact, mask, metadataOut, ts } from '../wireEncode';

// (Re-exported for the pull, which recognises a remote without filters the same way.)
export { filterUnsupported };

const annotationMarker: MarkerLookup<Annotation> = {
  operation: 'ListAnnotations', listField: 'annotations', markerKey: CLIENT_ID_KEY, markerOf, createdDateOf: (a) => a.createdDate,
};

/**
 * The annotation's logs written by us at or after `since` (server micros; less the send slack): narrowed by a CEL
 * filter where the remote has one (an annotation may carry thousands of colleagues' comments), else its whole list.
 */
function ourLogsSince(p: Pick<PushContext, 'call' | 'features' | 'userId'>, annotationId: string, since: number | null): Promise<AnnotationLog[]> {
  const floor = since === null ? undefined : Math.max(0, since - SEND_TIME_SLACK);
  const filter = `created_by_user_id == ${quote(p.userId)}${floor === undefined ? '' : ` && created_date >= timestamp('${formatTimestamp(floor)}')`}`;
  const keep = (log: AnnotationLog) => log.createdByUserId === p.userId && (floor === undefined || (parseTimestamp(log.createdDate) ?? 0) >= floor);
  return listAll<AnnotationLog>(p, 'ListAnnotationLogs', 'annotationLogs', filter, keep, { annotationId });
}

/**
 * The history logs the remote may have written on annotation `annotationId` for entry's write, which it answered at
 * `answeredAt` (server micros). Best effort: the write is done whatever the listing does, so a failed listing yields
 * none (the local logs then make way for the pull, which brings the remote's). Those logs are no older than the local
 * edit (in server time: the clock offset applied) nor than this run's first send; a resend after a lost answer finds
 * the first send's log that way too.
 */
export async function historyEchoes(
  p: Pick<PushContext, 'call' | 'features' | 'userId' | 'clockOffset'>, entry: OutboxEntry, annotationId: string, answeredAt: number,
): Promise<AnnotationLog[]> {
  const since = Math.min(entry.localTime + p.clockOffset, entry.firstSentServerTime ?? Infinity);
  try {
    return (await ourLogsSince(p, annotationId, since)).filter((l) => mayEchoOurWrite(l, p.userId, answeredAt));
  } catch {
    return [];
  }
}

/** The remote's answer `a` to a write of ours, with the history logs it may have written for it. */
async function withHistoryLogs(p: PushContext, entry: OutboxEntry, a: Annotation): Promise<{ annotation: Annotation; historyLogs: AnnotationLog[] }> {
  if (entry.sideEffectLogIds.length === 0) return { annotation: a, historyLogs: [] };
  return { annotation: a, historyLogs: await historyEchoes(p, entry, a.annotationId, wireMicros(a.modifiedDate) ?? p.serverNow()) };
}

function settleHistoryLogs(p: PushContext, entry: OutboxEntry, res: { historyLogs?: AnnotationLog[] }): void {
  settleSideEffectLogs(p.db, entry.seq, entry.sideEffectLogIds, res.historyLogs ?? []);
}

const encodeLinkedChannels = (list: readonly any[] | undefined) => list?.map((c) => compact({ ...c }));

export const createAnnotationSpec: OpSpec = {
  operation: 'CreateAnnotation',
  kind: 'create',
  targets: () => [],
  created: (_req, res) => [{ resource: ANNOTATION, id: res.annotation.annotationId }],
  targetsAfter: (_req, res) => [{ resource: ANNOTATION, recordId: res.annotation.annotationId, fields: ['*create'] }],
  encode(req, entry) {
    const localId = entry.createdIds[0].id;
    return compact({
      name: req.name,
      description: req.description,
      startTime: ts(req.startTime),
      endTime: ts(req.endTime),
      assets: req.assets,
      linkedChannels: encodeLinkedChannels(req.linkedChannels),
      tags: req.tags,
      runId: req.runId,
      assignToUserId: req.assignToUserId,
      organizationId: req.organizationId,
      state: req.state,
      annotationType: req.annotationType,
      legendConfig: req.legendConfig,
      createdByConditionId: req.createdByConditionId,
      createdByRuleConditionVersionId: req.createdByRuleConditionVersionId,
      metadata: [...(metadataOut(req.metadata) ?? []).filter((m) => m.key.name !== CLIENT_ID_KEY), { key: { name: CLIENT_ID_KEY, type: 'METADATA_KEY_TYPE_STRING' }, stringValue: localId }],
    });
  },
  send: async (p, request, entry) => withHistoryLogs(p, entry, (await p.call(entry.operation, request)).annotation),
  async findExisting(p, entry) {
    const found = await findByClientMarker(p, annotationMarker, entry.createdIds[0].id, entry.request.organizationId, entry.firstSentServerTime);
    return found && withHistoryLogs(p, entry, found);
  },
  applyResult(p, entry, res) {
    const a: Annotation = res.annotation ?? res;
    const localId = entry.createdIds[0].id;
    mapLocalId(p.db, ANNOTATION, localId, a.annotationId);
    settleHistoryLogs(p, entry, res);
    p.apply.annotations([a], { excludeSeq: entry.seq });
  },
};

const annotationTarget = (id: string, fields: string[]): Target => ({ resource: ANNOTATION, recordId: id, fields });

function encodePatch(patch: any, paths: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { annotationId: patch.annotationId };
  for (const path of paths) {
    switch (path) {
      case 'start_time': out.startTime = ts(patch.startTime); break;
      case 'end_time': out.endTime = ts(patch.endTime); break;
      case 'metadata': out.metadata = metadataOut(patch.metadata) ?? []; break;
      case 'linked_channels': out.linkedChannels = encodeLinkedChannels(patch.linkedChannels) ?? []; break;
      case 'tags': out.tags = patch.tags ?? []; break;
      case 'assigned_to_user_id': out.assignedToUserId = patch.assignedToUserId ?? ''; break;
      case 'legend_config': out.legendConfig = patch.legendConfig; break;
      case 'state': out.state = patch.state; break;
      // One concept on the platform: sent as the documented `deleted_date` (a date archives, null restores).
      case 'deleted_date':
      case 'archived_date': out.deletedDate = patch.deletedDate ?? patch.archivedDate ? ts(patch.deletedDate ?? patch.archivedDate) : null; break;
      default: out[path] = patch[path];
    }
  }
  return compact(out);
}

export const updateAnnotationSpec: OpSpec = {
  operation: 'UpdateAnnotation',
  kind: 'write',
  // An archive through the mask is the record's `archived` field, as ArchiveAnnotation's is.
  targets: (req) => [annotationTarget(req.annotation.annotationId, [...new Set((req.updateMask as string[]).map(fieldOfPath))])],
  encode: (req) => {
    const paths = [...new Set((req.updateMask as string[]).map((p) => (p === 'archived_date' ? 'deleted_date' : p)))];
    return { annotation: encodePatch(req.annotation, paths), updateMask: mask(paths) };
  },
  send: async (p, request, entry) => withHistoryLogs(p, entry, (await p.call(entry.operation, request)).annotation),
  applyResult(p, entry, res) {
    settleHistoryLogs(p, entry, res);
    p.apply.annotations([res.annotation], { excludeSeq: entry.seq });
  },
  dropField(req, _id, field) {
    const paths = (req.updateMask as string[]).filter((f) => fieldOfPath(f) !== field);
    return paths.length ? { ...req, updateMask: paths } : null;
  },
};

/** The synced field a mask path writes: the archive paths write `archived`. */
const fieldOfPath = (path: string) => (path === 'deleted_date' || path === 'archived_date' ? 'archived' : path);

/** Archive / unarchive / delete (= archive) of one annotation. */
function singleArchiveSpec(operation: string, returnsAnnotation: boolean): OpSpec {
  return {
    operation,
    kind: 'write',
    targets: (req) => [annotationTarget(req.annotationId, ['archived'])],
    encode: (req) => ({ annotationId: req.annotationId }),
    applyResult(p, entry, res) {
      deleteSideEffectLogs(p.db, entry.sideEffectLogIds); // the remote wrote its own; the pull brings them
      if (returnsAnnotation && res?.annotation) p.apply.annotations([res.annotation], { excludeSeq: entry.seq });
    },
    dropField: () => null,
  };
}

function batchArchiveSpec(operation: string, returnsAnnotations: boolean): OpSpec {
  return {
    operation,
    kind: 'write',
    targets: (req) => [...new Set(req.annotationIds as string[])].map((id) => annotationTarget(id, ['archived'])),
    encode: (req) => ({ annotationIds: req.annotationIds }),
    applyResult(p, entry, res) {
      deleteSideEffectLogs(p.db, entry.sideEffectLogIds); // the remote wrote its own; the pull brings them
      if (returnsAnnotations && res?.annotations) p.apply.annotations(res.annotations, { excludeSeq: entry.seq });
    },
    dropField(req, id) {
      const ids = (req.annotationIds as string[]).filter((x) => x !== id);
      return ids.length ? { ...req, annotationIds: ids } : null;
    },
  };
}

// ---- annotation logs ------------------------------------------------------

function logFields(req: any): string[] {
  if (req.kind === 'ANNOTATION_LOG_KIND_STATE_UPDATE') return ['state'];
  if (req.kind === 'ANNOTATION_LOG_KIND_ASSIGNED') return ['assigned_to_user_id'];
  return [];
}

async function findLog(p: PushContext, entry: OutboxEntry): Promise<AnnotationLog | undefined> {
  const req = entry.request;
  const content = logContent(req);
  const candidates = await ourLogsSince(p, req.annotationId, entry.firstSentServerTime);
  return candidates.find(
    (log) =>
      logContent(log) === content &&
      // Not a log we already hold (pulled, or adopted for another entry).
      unclaimed(p.db, 'annotation_logs', log.annotationLogId),
  );
}

export const createAnnotationLogSpec: OpSpec = {
  operation: 'CreateAnnotationLog',
  kind: 'create',
  targets: (req) => [annotationTarget(req.annotationId, logFields(req))],
  created: (_req, res) => [{ resource: ANNOTATION_LOG, id: res.annotationLog.annotationLogId }],
  encode: (req) =>
    compact({
      annotationId: req.annotationId,
      kind: req.kind,
      assigned: req.assigned ? compact({ assignedToUserId: req.assigned.assignedToUserId, assignedToUserEmail: req.assigned.assignedToUserEmail }) : undefined,
      stateUpdate: req.stateUpdate ? { state: req.stateUpdate.state } : undefined,
      comment: req.comment
        ? { body: req.comment.body.map((e: any) => compact({ type: e.type, text: e.text, userMention: e.userMention ? compact({ userId: e.userMention.userId, userEmail: e.userMention.userEmail }) : undefined })) }
        : undefined,
    }),
  findExisting: findLog,
  applyResult(p, entry, res) {
    const log: AnnotationLog = res.annotationLog ?? res;
    adoptLog(p.db, entry.createdIds[0].id, log);
  },
  dropField: () => null,
};

export const deleteAnnotationLogSpec: OpSpec = {
  operation: 'DeleteAnnotationLog',
  kind: 'write',
  targets: (req) => [
    { resource: ANNOTATION_LOG, recordId: req.annotationLogId, fields: ['*delete'] },
    annotationTarget(req.annotationId, []),
  ],
  encode: (req) => ({ annotationId: req.annotationId, annotationLogId: req.annotationLogId }),
  notFoundIsDone: true,
  applyResult: () => {},
};

export const annotationSpecs: readonly OpSpec[] = [
  createAnnotationSpec,
  updateAnnotationSpec,
  singleArchiveSpec('ArchiveAnnotation', true),
  singleArchiveSpec('UnarchiveAnnotation', true),
  singleArchiveSpec('DeleteAnnotation', false),
  batchArchiveSpec('BatchArchiveAnnotations', true),
  batchArchiveSpec('BatchUnarchiveAnnotations', true),
  batchArchiveSpec('BatchDeleteAnnotations', false),
  createAnnotationLogSpec,
  deleteAnnotationLogSpec,
];
