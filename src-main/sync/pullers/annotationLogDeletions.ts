// Annotation logs deleted on the remote (DeleteAnnotationLog: a comment taken
// back by its author) leave no trace an incremental pull could see: logs are
// pulled by created_date, and a deletion changes neither the log (gone) nor its
// annotation. So now and then (`reconcileEvery`, 6 h by default) the logs are
// listed in full, ids only kept, and every local log the remote no longer has
// is removed, unless it is still on its way there: a log created offline (or a
// history log a pending local write made) whose outbox entry is still open.
// Logs created on the remote after the listing started are not local yet (the
// pull runs alone), so nothing the remote has is ever removed. Only logs of
// the remote's organizations are considered.
import type { AnnotationLog } from '../../../src-shared/api/annotationLogs';
import type { Db } from '../../db/database';
import type { Puller } from '../pull';
import type { SyncSession } from '../session';

const RESOURCE = 'annotation_logs:deletions';

/** Ids of local logs that open outbox entries created (offline comments, local history of pending writes). */
function pendingLogIds(db: Db): Set<string> {
  const ids = new Set<string>();
  for (const e of db.all<{ created_ids: string; side_effect_log_ids: string }>(
    "SELECT created_ids, side_effect_log_ids FROM sync_outbox WHERE state IN ('pending', 'inflight')",
  )) {
    for (const c of JSON.parse(e.created_ids) as { resource: string; id: string }[]) if (c.resource === 'annotation_log') ids.add(c.id);
    for (const id of JSON.parse(e.side_effect_log_ids) as string[]) ids.add(id);
  }
  return ids;
}

const lastReconcile = (db: Db) => db.get<{ modified_date: number }>('SELECT modified_date FROM sync_cursors WHERE resource = ?', [RESOURCE])?.modified_date;

function saveReconcile(db: Db, serverTime: number): void {
  db.run(
    `INSERT INTO sync_cursors(resource, modified_date, last_id, updated_date) VALUES (?, ?, '', ?)
     ON CONFLICT(resource) DO UPDATE SET modified_date = excluded.modified_date, updated_date = excluded.updated_date`,
    [RESOURCE, serverTime, Date.now() * 1000],
  );
}

export const annotationLogDeletionsPuller: Puller<AnnotationLog> = {
  resource: RESOURCE,
  operation: 'ListAllAnnotationLogs',
  listField: 'annotationLogs',
  mode: 'full',
  orderable: false,
  idOf: (l) => l.annotationLogId,
  variants(s: SyncSession) {
    const last = lastReconcile(s.db);
    if (last === undefined) {
      // A first pull has just read every log (or is about to): the clock starts now.
      saveReconcile(s.db, s.remote.serverNow());
      return [];
    }
    // (The server clock is estimated to within a second: an interval of 0 means every sync.)
    return s.reconcileEvery <= 0 || s.remote.serverNow() - last >= s.reconcileEvery ? [{}] : [];
  },
  // Arrivals are the incremental puller's work: this one only looks at what is missing (and counts as nothing pulled).
  apply: () => 0,
  finish(s, _variant, seen) {
    const pending = pendingLogIds(s.db);
    // Only the remote's organizations: records of a local organization (made before linking) never went there.
    const organizations = s.identity.organizations.map((o) => o.id);
    const gone = s.db
      .all<{ pk: number; id: string }>(`SELECT pk, id FROM annotation_logs WHERE organization_id IN (${organizations.map(() => '?').join(', ')})`, organizations)
      .filter((l) => !seen.has(l.id) && !pending.has(l.id));
    for (const l of gone) s.db.run('DELETE FROM annotation_logs WHERE pk = ?', [l.pk]);
    saveReconcile(s.db, s.remote.serverNow());
  },
};
