// Pulls annotation logs. Logs are immutable (modified_date = created_date), so
// the cursor is created_date: the list has no order_by and its default order
// is created_date ascending, which a created_date filter can use as a range. A log whose
// annotation is not local yet (created after the annotations were pulled)
// fetches that annotation first, so no log is skipped past the cursor.
import type { AnnotationLog } from '../../../../src-shared/api/annotationLogs';
import { changedBy } from '../../apply';
import { callWithRetry, countPulled, type Puller } from '../../pull';
import { classify } from '../../retry';
import { applyRemoteAnnotations } from '../annotations/apply';
import { applyRemoteLogs } from './apply';
import { ANNOTATION_LOG } from '../annotations/historyLogs';

export const annotationLogsPuller: Puller<AnnotationLog> = {
  resource: 'annotation_logs',
  // A log under the id of one made here, or on a record made here under the remote's id, is another record's.
  collisions: { table: 'annotation_logs', kind: ANNOTATION_LOG, parent: { table: 'annotations', idOf: (l) => l.annotationId } },
  // Again after the push: the remote's own history logs of our writes.
  readAgain: 'afterPush',
  operation: 'ListAllAnnotationLogs',
  listField: 'annotationLogs',
  listing: {
    by: 'created_date',
    orderable: false,
    bulkLoad: { tables: ['annotation_logs'], liveIndexes: ['annotation_logs_org_created', 'annotation_logs_org_modified'] },
  },
  idOf: (l) => l.annotationLogId,
  variants: () => [{}],
  async prepare(s, items) {
    const ids = [...new Set(items.map((l) => l.annotationId))];
    // One query per page: a lookup per annotation cost as much as inserting the page's logs.
    const local = new Set(
      s.db
        .all<{ id: string }>('SELECT id FROM annotations WHERE id IN (SELECT value FROM json_each(?))', [JSON.stringify(ids)])
        .map((r) => r.id),
    );
    const missing = ids.filter((id) => !local.has(id));
    for (const annotationId of missing) {
      try {
        const res = await callWithRetry(s, 'GetAnnotation', { annotationId });
        // An annotation that arrives this way arrived all the same (the annotations' pull will find it unchanged).
        const arrived = changedBy(s.applier.stats, () => applyRemoteAnnotations(s.applier, [res.annotation]));
        countPulled(s, 'annotations', arrived);
      } catch (e) {
        if (classify(e).kind !== 'notFound') throw e;
      }
    }
  },
  /** Counts logs new here (logs are immutable: one already held, or our own adopted one, counts 0). */
  apply(s, items, _variant, loaded) {
    return changedBy(s.applier.stats, () => applyRemoteLogs(s.applier, items, loaded));
  },
};
