// How the annotation writes are recorded and replayed (the annotation-log
// writes: ../annotationLogs/specs.ts).
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
// after the remote answered (historyLogs.ts settleSideEffectLogs).
import { CreateAnnotationRequest, type Annotation } from '../../../../src-shared/api/annotations';
import type { RequestContext } from '../../../engine';
import { getAnnotation } from '../../../services/annotations/annotationsService';
import type { AnnotationLog } from '../../../../src-shared/api/annotationLogs';
import { formatTimestamp, parseTimestamp } from '../../../../src-shared/api/time';
import { mapLocalId } from '../../idMap';
import { applyRemoteAnnotations, markerOf } from './apply';
import { ANNOTATION, ANNOTATION_SHAPE, CLIENT_ID_KEY } from './shape';
import { fieldOfPath as fieldOf } from '../../recordShape';
import { deleteSideEffectLogs, mayEchoOurWrite, settleSideEffectLogs } from './historyLogs';
import { SEND_TIME_SLACK, wireMicros } from '../../time';
import type { OutboxEntry, Target } from '../../types';
import {
  asValidated,
  defineSpec,
  onlyNewRecords,
  retryAsAsked,
  type BatchForm,
  type OpSpec,
  type PushContext,
  type StoredRequest,
  type WireRequest,
} from '../../spec';
import { idsBatch, setById, wireMembers, wireRequest, type WireMembers } from '../../specForms';
import { findByClientMarker, listAll, quote, type MarkerLookup } from '../../remoteQuery';
import { compact, mask, metadataOut, ts } from '../../wireEncode';

const annotationMarker: MarkerLookup<Annotation> = {
  operation: 'ListAnnotations',
  listField: 'annotations',
  markerKey: CLIENT_ID_KEY,
  markerOf,
  createdDateOf: (a) => a.createdDate,
};

/**
 * The annotation's logs written by us at or after `since` (server micros; less the send slack): narrowed by a CEL
 * filter where the remote has one (an annotation may carry thousands of colleagues' comments), else its whole list.
 */
export function ourLogsSince(
  p: Pick<PushContext, 'call' | 'features' | 'userId'>,
  annotationId: string,
  since: number | null,
): Promise<AnnotationLog[]> {
  const floor = since === null ? undefined : Math.max(0, since - SEND_TIME_SLACK);
  const filter = `created_by_user_id == ${quote(p.userId)}${floor === undefined ? '' : ` && created_date >= timestamp('${formatTimestamp(floor)}')`}`;
  const keep = (log: AnnotationLog) =>
    log.createdByUserId === p.userId && (floor === undefined || (parseTimestamp(log.createdDate) ?? 0) >= floor);
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
  p: Pick<PushContext, 'call' | 'features' | 'userId' | 'clockOffset'>,
  entry: OutboxEntry,
  annotationId: string,
  answeredAt: number,
): Promise<AnnotationLog[]> {
  const since = Math.min(entry.localTime + p.clockOffset, entry.firstSentServerTime ?? Infinity);
  try {
    return (await ourLogsSince(p, annotationId, since)).filter((l) => mayEchoOurWrite(l, p.userId, answeredAt));
  } catch {
    return [];
  }
}

/** The remote's answer to a write of ours, with the history logs it may have written for it. */
interface WithHistoryLogs {
  readonly annotation: Annotation;
  readonly historyLogs: AnnotationLog[];
}

async function withHistoryLogs(p: PushContext, entry: OutboxEntry, a: Annotation): Promise<WithHistoryLogs> {
  if (entry.sideEffectLogIds.length === 0) return { annotation: a, historyLogs: [] };
  return { annotation: a, historyLogs: await historyEchoes(p, entry, a.annotationId, wireMicros(a.modifiedDate) ?? p.serverNow()) };
}

function settleHistoryLogs(p: PushContext, entry: OutboxEntry, res: { historyLogs?: AnnotationLog[] }): void {
  settleSideEffectLogs(p, entry.seq, entry.sideEffectLogIds, res.historyLogs ?? []);
}

const encodeLinkedChannels = (list: StoredRequest<'CreateAnnotation'>['linkedChannels']) => list?.map((c) => compact({ ...c }));

/** The create of annotation `id` as it is now here (a refused create's Retry). */
function currentCreateAnnotation(ctx: RequestContext, id: string): StoredRequest<'CreateAnnotation'> {
  const { annotation: a } = getAnnotation(ctx, id);
  // The create names assets (the record holds their ids, in order) and assigns with assign_to_user_id.
  const assets = ctx.db
    .all<{ name: string }>('SELECT s.name FROM json_each(?) j JOIN assets s ON s.id = j.value ORDER BY j.key', [JSON.stringify(a.assetIds)])
    .map((r) => r.name);
  return CreateAnnotationRequest.parse({
    ...a,
    assets,
    assignToUserId: a.assignedToUserId || undefined,
    // (The review state is what the record has; a phase has none.)
    state: a.state === 'ANNOTATION_STATE_UNSPECIFIED' ? undefined : a.state,
  });
}

/** The synced field a mask path writes: the archive paths write `archived`. */
const fieldOfPath = fieldOf(ANNOTATION_SHAPE);

export const createAnnotationSpec = defineSpec<'CreateAnnotation', WithHistoryLogs>({
  operation: 'CreateAnnotation',
  ...onlyNewRecords,
  create: {
    created: (_req, res) => [{ resource: ANNOTATION, id: res.annotation.annotationId }],
    async find(p, entry) {
      const found = await findByClientMarker(
        p,
        annotationMarker,
        entry.createdIds[0].id,
        entry.request.organizationId,
        entry.firstSentServerTime,
      );
      return found && withHistoryLogs(p, entry, found);
    },
    // Retry sends the annotation as it is now; Discard deletes it with its tags, assets, channels, metadata and logs.
    refused: { ...retryAsAsked, rebuild: currentCreateAnnotation },
  },
  encode: (req, entry) =>
    wireRequest(req, {
      startTime: (r) => ts(r.startTime),
      endTime: (r) => ts(r.endTime),
      linkedChannels: (r) => encodeLinkedChannels(r.linkedChannels),
      metadata: (r) => [
        ...(metadataOut(r.metadata) ?? []).filter((m) => m.key.name !== CLIENT_ID_KEY),
        { key: { name: CLIENT_ID_KEY, type: 'METADATA_KEY_TYPE_STRING' }, stringValue: entry.createdIds[0].id },
      ],
    }) as WireRequest<'CreateAnnotation'>,
  transfer: {
    asyncWrite: false,
    stored: asValidated,
    send: async (p, request, entry) => withHistoryLogs(p, entry, (await p.call('CreateAnnotation', request)).annotation),
  },
  applyResult(p, entry, res) {
    const a = res.annotation;
    const localId = entry.createdIds[0].id;
    mapLocalId(p, ANNOTATION, localId, a.annotationId);
    settleHistoryLogs(p, entry, res);
    applyRemoteAnnotations(p.apply, [a], { excludeSeq: entry.seq });
  },
});

export const annotationTarget = (id: string, fields: string[]): Target => ({ resource: ANNOTATION, recordId: id, fields });

/** An annotation's members whose wire form differs from the validated one in an update (an unset value clears it remotely). */
const PATCH_WIRE: WireMembers<StoredRequest<'UpdateAnnotation'>['annotation']> = {
  startTime: (a) => ts(a.startTime),
  endTime: (a) => ts(a.endTime),
  metadata: (a) => metadataOut(a.metadata) ?? [],
  linkedChannels: (a) => encodeLinkedChannels(a.linkedChannels) ?? [],
  tags: (a) => a.tags ?? [],
  assignedToUserId: (a) => a.assignedToUserId ?? '',
};

/**
 * An UpdateAnnotation as the platform takes it: the documented mask paths as an UpdateAnnotation, an archive or
 * restore through the mask (`deleted_date`/`archived_date`, not an updatable path there) as ArchiveAnnotation or
 * UnarchiveAnnotation after it.
 */
interface EncodedUpdate {
  readonly update?: WireRequest<'UpdateAnnotation'>;
  readonly archive?: { readonly operation: 'ArchiveAnnotation' | 'UnarchiveAnnotation'; readonly annotationId: string };
}

export const updateAnnotationSpec = defineSpec<'UpdateAnnotation', WithHistoryLogs, StoredRequest<'UpdateAnnotation'>, EncodedUpdate>({
  operation: 'UpdateAnnotation',
  // An archive through the mask is the record's `archived` field, as ArchiveAnnotation's is.
  targets: (req) => [annotationTarget(req.annotation.annotationId, [...new Set(req.updateMask.map(fieldOfPath))])],
  encode: (req) => {
    const paths = [...new Set(req.updateMask.filter((p) => fieldOfPath(p) !== 'archived'))];
    const archives = req.updateMask.some((p) => fieldOfPath(p) === 'archived');
    const patch = req.annotation;
    return {
      update: paths.length
        ? {
            // (Each path of the update mask names a member of the patch: PATCH_WIRE gives its wire form.)
            annotation: {
              annotationId: patch.annotationId,
              ...wireMembers(patch, paths, PATCH_WIRE),
            } as WireRequest<'UpdateAnnotation'>['annotation'],
            updateMask: mask(paths),
          }
        : undefined,
      archive: archives
        ? {
            operation: (patch.deletedDate ?? patch.archivedDate) ? 'ArchiveAnnotation' : 'UnarchiveAnnotation',
            annotationId: patch.annotationId,
          }
        : undefined,
    };
  },
  transfer: {
    asyncWrite: false,
    stored: asValidated,
    async send(p, request, entry) {
      let annotation = request.update && (await p.call('UpdateAnnotation', request.update)).annotation;
      if (request.archive)
        annotation = (await p.call(request.archive.operation, { annotationId: request.archive.annotationId })).annotation;
      return withHistoryLogs(p, entry, annotation!);
    },
  },
  applyResult(p, entry, res) {
    settleHistoryLogs(p, entry, res);
    applyRemoteAnnotations(p.apply, [res.annotation], { excludeSeq: entry.seq });
  },
  dropField(req, _id, field) {
    const paths = req.updateMask.filter((f) => fieldOfPath(f) !== field);
    return paths.length ? { ...req, updateMask: paths } : null;
  },
  notFound: 'conflict',
});

/** Single archives (or unarchives) travel together as the batch operation (up to 1000 ids). */
const batchOf = (
  operation: 'BatchArchiveAnnotations' | 'BatchUnarchiveAnnotations',
): BatchForm<StoredRequest<'ArchiveAnnotation' | 'UnarchiveAnnotation'>, typeof operation, { annotation?: Annotation }> => ({
  operation,
  idOf: (req) => req.annotationId,
  request: (annotationIds) => ({ annotationIds: [...annotationIds] }),
  results(res) {
    const byId = new Map(res.annotations.map((a) => [a.annotationId, a]));
    return (id) => ({ annotation: byId.get(id) });
  },
});

/** The remote wrote its own history logs for an archive (the pull brings them): ours go; its answer is applied. */
const applyArchive = (p: PushContext, entry: OutboxEntry, annotations: readonly Annotation[] | undefined) => {
  deleteSideEffectLogs(p.db, entry.sideEffectLogIds);
  if (annotations) applyRemoteAnnotations(p.apply, annotations, { excludeSeq: entry.seq });
};

/** Archive / unarchive / delete (= archive) of one annotation (DeleteAnnotation answers without it). */
const singleArchiveSpec = (
  operation: 'ArchiveAnnotation' | 'UnarchiveAnnotation' | 'DeleteAnnotation',
  batch?: BatchForm<StoredRequest<'ArchiveAnnotation' | 'UnarchiveAnnotation'>>,
): OpSpec =>
  // (A batch's answer may lack one of its annotations.)
  setById<typeof operation, { annotation?: Annotation } | undefined>({
    operation,
    resource: ANNOTATION,
    id: 'annotationId',
    field: 'archived',
    batch,
    applyResult: (p, entry, res) => applyArchive(p, entry, res?.annotation && [res.annotation]),
  });

/** The batch forms (BatchDeleteAnnotations answers without the annotations). */
const batchArchiveSpec = (operation: 'BatchArchiveAnnotations' | 'BatchUnarchiveAnnotations' | 'BatchDeleteAnnotations'): OpSpec =>
  idsBatch<typeof operation, { annotations?: Annotation[] } | undefined>({
    operation,
    resource: ANNOTATION,
    ids: 'annotationIds',
    field: 'archived',
    notFound: 'conflict',
    applyResult: (p, entry, res) => applyArchive(p, entry, res?.annotations),
  });

export const annotationSpecs: readonly OpSpec[] = [
  createAnnotationSpec,
  updateAnnotationSpec,
  singleArchiveSpec('ArchiveAnnotation', batchOf('BatchArchiveAnnotations')),
  singleArchiveSpec('UnarchiveAnnotation', batchOf('BatchUnarchiveAnnotations')),
  singleArchiveSpec('DeleteAnnotation'),
  batchArchiveSpec('BatchArchiveAnnotations'),
  batchArchiveSpec('BatchUnarchiveAnnotations'),
  batchArchiveSpec('BatchDeleteAnnotations'),
];
