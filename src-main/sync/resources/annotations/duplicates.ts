// Copies a replayed create left on the remote (found by their marker during
// pull, logged as `duplicate` conflicts) are archived there: archive is a
// state, and the only removal the API offers for annotations.
import { callWithRetry } from '../../pull';
import type { SyncSession } from '../../session';
import { applyRemoteAnnotations } from './apply';

export async function archiveDuplicates(s: SyncSession): Promise<number> {
  const ids = s.db
    .all<{ id: string }>(
      `SELECT c.record_id AS id FROM sync_conflicts c JOIN annotations a ON a.id = c.record_id
       WHERE c.kind = 'duplicate' AND c.state = 'open' AND a.archived_date IS NULL`,
    )
    .map((r) => r.id);
  for (let i = 0; i < ids.length; i += 1000) {
    const res = await callWithRetry(s, 'BatchArchiveAnnotations', { annotationIds: ids.slice(i, i + 1000) });
    applyRemoteAnnotations(s.applier, res.annotations);
  }
  return ids.length;
}
