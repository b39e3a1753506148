// Records the remote refused an edit of (migration 0010), of the kinds whose
// descriptor says how to read one by id (RecordKind.refetch: those pulled by
// modified date; the others are listed whole at every sync). The copy here then holds a value the remote never
// took, with no edit left to send; a pull fixes that only when the remote
// record changes again (it lists what changed since its cursor). So each is
// read again by id: right after the refusal and, when that read could not be
// made (the link failed, the process was killed), at every later pull until
// it is. The note is written in the transaction that fails the entry and
// removed in the one that applies the remote's version.
import { ApiError, Code } from '../../src-shared/errors';
import type { Db } from '../db/database';
import type { ResourceCatalog } from './catalog';
import { isUnmappedLocalId } from './idMap';
import { noteForRefetch } from './refetchNotes';
import type { RemoteCall } from './wireTypes';
import type { SyncSession } from './session';
import type { Target } from './types';

/** Notes the records of a refused entry's targets to be read again (those with a reader; part of the caller's transaction). */
export function noteRefetch(c: ResourceCatalog, db: Db, targets: readonly Target[]): void {
  for (const t of targets) {
    // A record made here that the remote never took has no remote version to read.
    if (!c.kind(t.resource)?.refetch || t.fields.includes('*create') || isUnmappedLocalId(db, t.recordId)) continue;
    noteForRefetch(db, t.resource, t.recordId);
  }
}

/**
 * Reads the noted records (all, or those of `ids`) from the remote and applies each, whatever its modified date
 * (the copy here changed without it changing). One gone from the remote drops its note (nothing to read); any
 * other failure stops, leaving the rest for the next pull.
 */
export async function refetchNoted(s: SyncSession, c: ResourceCatalog, call: RemoteCall, ids?: readonly string[]): Promise<void> {
  const { db } = s;
  const noted = db.all<{ resource: string; record_id: string }>(
    'SELECT resource, record_id FROM sync_refetch ORDER BY resource, record_id',
  );
  for (const { resource, record_id: id } of ids ? noted.filter((n) => ids.includes(n.record_id)) : noted) {
    const reader = c.kind(resource)?.refetch;
    let item: unknown;
    try {
      item = await reader?.read(s, call, id);
    } catch (e) {
      if (!(e instanceof ApiError && e.code === Code.NOT_FOUND)) return;
    }
    db.tx(() => {
      // (First: an apply that leaves the record for later notes it again, e.g. a copy an in-flight create may have made.)
      db.run('DELETE FROM sync_refetch WHERE resource = ? AND record_id = ?', [resource, id]);
      if (item) reader!.apply(s, item);
    });
  }
}
