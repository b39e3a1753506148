// Annotation logs deleted on the remote (DeleteAnnotationLog: a comment taken
// back by its author) leave no trace an incremental pull could see: logs are
// pulled by created_date, and a deletion changes neither the log (gone) nor its
// annotation. So they are reconciled by a periodic full listing (deletions.ts).
// Besides logs created offline, the history logs a pending local write made
// (CREATED, STATE_UPDATE...) are on their way too: the remote writes its own,
// and they adopt those (or are removed) when the write's entry is done.
import type { AnnotationLog } from '../../../src-shared/api/annotationLogs';
import type { Db } from '../../db/database';
import { ANNOTATION_LOG } from '../resources/annotationLogs';
import { deletionReconciler } from './deletions';
import { OPEN_STATES } from '../outbox';

/** Ids of local history logs that open outbox entries' writes appended. */
function pendingSideEffectLogIds(db: Db): Set<string> {
  const ids = new Set<string>();
  for (const e of db.all<{ side_effect_log_ids: string }>(`SELECT side_effect_log_ids FROM sync_outbox WHERE state IN ${OPEN_STATES}`)) {
    for (const id of JSON.parse(e.side_effect_log_ids) as string[]) ids.add(id);
  }
  return ids;
}

export const annotationLogDeletionsPuller = deletionReconciler<AnnotationLog>({
  resource: 'annotation_logs:deletions',
  operation: 'ListAllAnnotationLogs',
  listField: 'annotationLogs',
  idOf: (l) => l.annotationLogId,
  table: 'annotation_logs',
  createdResource: ANNOTATION_LOG,
  stays(db) {
    const pending = pendingSideEffectLogIds(db);
    return (l) => pending.has(l.id);
  },
});
