// Annotation logs deleted on the remote (DeleteAnnotationLog: a comment taken
// back by its author) leave no trace an incremental pull could see: logs are
// pulled by created_date, and a deletion changes neither the log (gone) nor its
// annotation. So they are reconciled by a periodic full listing (deletions.ts).
// Besides logs created offline, the history logs a pending local write made
// (CREATED, STATE_UPDATE...) are on their way too: the remote writes its own,
// and they adopt those (or are removed) when the write's entry is done.
import type { AnnotationLog } from '../../../../src-shared/api/annotationLogs';
import { annotationLogRows } from '../../../services/annotations/annotationLogStore';
import { ANNOTATION_LOG } from '../annotations/historyLogs';
import { deletionReconciler } from '../../deletions';
import { openSideEffectIds } from '../../outbox';

export const annotationLogDeletionsPuller = deletionReconciler<AnnotationLog>({
  resource: 'annotation_logs:deletions',
  operation: 'ListAllAnnotationLogs',
  listField: 'annotationLogs',
  idOf: (l) => l.annotationLogId,
  rows: annotationLogRows,
  createdResource: ANNOTATION_LOG,
  stays(db) {
    const pending = openSideEffectIds(db);
    return (l) => pending.has(l.id);
  },
});
