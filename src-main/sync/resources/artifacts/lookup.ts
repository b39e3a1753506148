// Finding what an artifact create whose outcome is unknown may have made on
// the remote, before anything is sent again (no idempotency keys):
//   - an artifact (upload or structured) by its metadata marker
//     `outpost_client_id = <local id>`: a CEL metadata filter, or, on a remote
//     without filters, a newest-first scan back to just before the first send;
//   - a version (no field could carry a marker) among the artifact's versions:
//     ours (author), created at or after the first send, with the content's
//     SHA-256 and size, and held by no local record yet.
import type { Artifact, ArtifactVersion } from '../../../../src-shared/api/artifacts';
import { translateIds, unclaimed } from '../../idMap';
import { ARTIFACT_CLIENT_ID_KEY, markerOf } from './apply';
import { madeSince } from '../../inflightCreates';
import type { OutboxEntry } from '../../types';
import type { PushContext } from '../../spec';
import { findByClientMarker, listEvery, type ListCall, type MarkerLookup } from '../../remoteQuery';

/** A created artifact found again, with the id of its first version (the one the create made). */
export interface FoundArtifact {
  readonly artifact: Artifact;
  readonly firstVersionId: string;
}

/** A created version found again, with its artifact as the remote has it now. */
export interface FoundVersion {
  readonly artifact: Artifact;
  readonly createdVersion: ArtifactVersion;
}

/** Every version of an artifact on the remote (`call`: the push's, or the pull's with its retries). */
export const allVersions = (call: ListCall, artifactId: string) =>
  listEvery<ArtifactVersion>(call, 'ListArtifactVersions', 'artifactVersions', { artifactId, pageSize: 1000 });

const artifactMarker: MarkerLookup<Artifact> = {
  // Archived ones too: ListArtifacts takes include_archived in its filter only (seed spec).
  operation: 'ListArtifacts',
  listField: 'artifacts',
  filter: 'include_archived == true',
  markerKey: ARTIFACT_CLIENT_ID_KEY,
  markerOf,
  createdDateOf: (a) => a.createdDate,
};

export async function findCreatedArtifact(
  p: PushContext,
  entry: Pick<OutboxEntry, 'firstSentServerTime'> & { readonly request: { readonly organizationId?: string } },
  localId: string,
): Promise<FoundArtifact | undefined> {
  const a = await findByClientMarker(p, artifactMarker, localId, entry.request.organizationId, entry.firstSentServerTime);
  if (!a) return undefined;
  if (a.version === 1) return { artifact: a, firstVersionId: a.artifactVersionId };
  const first = (await allVersions(p.call, a.artifactId)).find((v) => v.version === 1);
  return first && { artifact: a, firstVersionId: first.artifactVersionId };
}

/** A new version's create as the outbox keeps it: what finds the version again. */
export interface VersionCreate {
  readonly artifactId: string;
  readonly sha256: string;
  readonly sizeBytes: number;
}

export async function findCreatedVersion(
  p: PushContext,
  entry: Pick<OutboxEntry, 'firstSentServerTime'> & { readonly request: VersionCreate },
): Promise<FoundVersion | undefined> {
  const req = translateIds(p.db, entry.request);
  const v = (await allVersions(p.call, req.artifactId)).find(
    (x) =>
      madeSince(x, entry.firstSentServerTime, p.userId) &&
      x.sha256 === req.sha256 &&
      Number(x.sizeBytes) === req.sizeBytes &&
      unclaimed(p.db, 'artifact_versions', x.artifactVersionId),
  );
  if (!v) return undefined;
  const { artifact } = await p.call('GetArtifact', { artifactId: req.artifactId });
  return { artifact, createdVersion: v };
}
