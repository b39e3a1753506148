// Records the remote refused an edit of (migration 0010). The copy here then
// holds a value the remote never took, with no edit left to send; a pull fixes
// that only when the remote record changes again (it lists what changed since
// its cursor). So each is read again by id: right after the refusal, and, when
// that read could not be made (the link failed, the process was killed), at
// every later pull until it is. The note is written in the transaction that
// fails the entry and removed in the one that applies the remote's version.
import { ApiError, Code } from '../../src-shared/errors';
import type { Db } from '../db/database';
import { isUnmappedLocalId } from './idMap';
import { ANNOTATION } from './resources/annotations';
import type { Applier } from './apply';
import type { Target } from './types';

/** Notes the records of a refused entry's targets to be read again (annotations; part of the caller's transaction). */
export function noteRefetch(db: Db, targets: readonly Target[]): void {
  for (const t of targets) {
    // A record made here that the remote never took has no remote version to read.
    if (t.resource !== ANNOTATION || t.fields.includes('*create') || isUnmappedLocalId(db, t.recordId)) continue;
    db.run('INSERT OR IGNORE INTO sync_refetch(resource, record_id) VALUES (?, ?)', [t.resource, t.recordId]);
  }
}

/**
 * Reads the noted records (all, or those of `ids`) from the remote and applies each, whatever its modified date
 * (the copy here changed without it changing). One gone from the remote drops its note (nothing to read); any
 * other failure stops, leaving the rest for the next pull.
 */
export async function refetchNoted(db: Db, call: (op: string, req: Record<string, unknown>) => Promise<any>, apply: Applier, ids?: readonly string[]): Promise<void> {
  const noted = db.all<{ record_id: string }>('SELECT record_id FROM sync_refetch WHERE resource = ?', [ANNOTATION]).map((r) => r.record_id);
  for (const id of ids ? noted.filter((n) => ids.includes(n)) : noted) {
    let annotation;
    try {
      annotation = (await call('GetAnnotation', { annotationId: id })).annotation;
    } catch (e) {
      if (!(e instanceof ApiError && e.code === Code.NOT_FOUND)) return;
      db.run('DELETE FROM sync_refetch WHERE resource = ? AND record_id = ?', [ANNOTATION, id]);
      continue;
    }
    db.tx(() => {
      apply.annotations([annotation], { force: true });
      db.run('DELETE FROM sync_refetch WHERE resource = ? AND record_id = ?', [ANNOTATION, id]);
    });
  }
}
