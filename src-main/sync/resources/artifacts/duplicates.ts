// A replayed create (a middlebox sending our upload twice) leaves a second
// artifact with our marker on the remote. The pull that meets it, while the
// marker's local id is already mapped to the other copy, archives it there
// (archive is the only removal the API offers) and logs a `duplicate`
// conflict, as annotations do (../annotations/duplicates.ts).
import type { Artifact } from '../../../../src-shared/api/artifacts';
import { recordConflict } from '../../conflicts';
import { remoteIdOf } from '../../idMap';
import { callWithRetry } from '../../pull';
import { ARTIFACT, markerOf } from './apply';
import type { SyncSession } from '../../session';

/** The artifact as it is after archiving it when it is an extra copy of one of our creates; else as given. */
export async function archiveIfDuplicate(s: SyncSession, a: Artifact): Promise<Artifact> {
  const marker = markerOf(a);
  if (!marker || a.isArchived) return a;
  const kept = remoteIdOf(s.db, marker);
  if (!kept || kept === a.artifactId) return a;
  const { artifact } = await callWithRetry(s, 'ArchiveArtifact', { artifactId: a.artifactId });
  s.db.tx(() => {
    if (s.db.get("SELECT 1 FROM sync_conflicts WHERE kind = 'duplicate' AND record_id = ?", [a.artifactId])) return;
    recordConflict(s.db, {
      kind: 'duplicate',
      resource: ARTIFACT,
      recordId: a.artifactId,
      field: '*',
      winner: 'local',
      localValue: kept,
      remoteValue: a.artifactId,
      message: `a replayed create made a second copy of artifact ${kept} on the remote; the copy is archived`,
    });
  });
  return artifact as Artifact;
}
