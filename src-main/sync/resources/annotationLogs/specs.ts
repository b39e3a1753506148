// How the annotation-log writes are recorded and replayed. A
// CreateAnnotationLog cannot carry a marker (a comment body has no place for
// one): a create whose outcome is unknown is looked up among the annotation's
// logs by (kind, author, content, created at or after the first send) and not
// already known locally. A deleted log is done once the remote says it is gone.
import type { AnnotationLog } from '../../../../src-shared/api/annotationLogs';
import { unclaimed } from '../../idMap';
import {
  defineSpec,
  dropAll,
  retryAsAsked,
  type EntryOf,
  type OpSpec,
  type PushContext,
  type StoredRequest,
  type WireRequest,
  type WireResponse,
} from '../../spec';
import { deleteById, wireRequest } from '../../specForms';
import { annotationTarget, ourLogsSince } from '../annotations/specs';
import { adoptLog, ANNOTATION_LOG, logContent } from '../annotations/historyLogs';

function logFields(req: StoredRequest<'CreateAnnotationLog'>): string[] {
  if (req.kind === 'ANNOTATION_LOG_KIND_STATE_UPDATE') return ['state'];
  if (req.kind === 'ANNOTATION_LOG_KIND_ASSIGNED') return ['assigned_to_user_id'];
  return [];
}

async function findLog(p: PushContext, entry: EntryOf<StoredRequest<'CreateAnnotationLog'>>): Promise<AnnotationLog | undefined> {
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

export const createAnnotationLogSpec = defineSpec<'CreateAnnotationLog', WireResponse<'CreateAnnotationLog'> | AnnotationLog>({
  operation: 'CreateAnnotationLog',
  targets: (req) => [annotationTarget(req.annotationId, logFields(req))],
  dropField: dropAll,
  notFound: 'conflict',
  create: {
    created: (_req, res) => [{ resource: ANNOTATION_LOG, id: res.annotationLog.annotationLogId }],
    find: findLog,
    refused: {
      ...retryAsAsked,
      // A state change or an assignment changed the annotation here too: giving up only the log would leave it changed
      // here and not on the remote, with nothing left to send.
      keeps: (req) => (req.kind === 'ANNOTATION_LOG_KIND_COMMENT' ? undefined : 'it changed its annotation here too'),
    },
  },
  // (The validated request is its wire form, member by member.)
  encode: (req) => wireRequest(req, {}) as WireRequest<'CreateAnnotationLog'>,
  applyResult(p, entry, res) {
    const log = 'annotationLog' in res ? res.annotationLog : res;
    adoptLog(p, entry.createdIds[0].id, log);
  },
});

export const deleteAnnotationLogSpec = deleteById('DeleteAnnotationLog', ANNOTATION_LOG, 'annotationLogId', (req) => [
  annotationTarget(req.annotationId, []),
]);

export const annotationLogSpecs: readonly OpSpec[] = [createAnnotationLogSpec, deleteAnnotationLogSpec];
