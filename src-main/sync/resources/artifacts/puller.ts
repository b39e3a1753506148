// Pulls artifacts: the whole list every run, archived ones included (archives
// are state), with only what ListArtifacts documents (seed spec): the filter
// `include_archived == true` (there is no include_archived parameter) and
// order_by created_date, which no change moves, so no artifact moves between
// pages. No documented order or filter field moves with a link or an unarchive
// (version_created_date moves only with a new version), so an incremental read
// would miss a colleague's links for good; an unchanged artifact costs a
// comparison here and counts 0 (src-main/sync/README.md, Artifacts). Before a
// page's transaction, an artifact whose current version is not stored here
// (or whose content file is missing) gets its version list and every missing
// version's content, streamed into the content store and verified (and an
// extra copy of one of our creates is archived: duplicates.ts). A
// version a CreateArtifactVersion of ours in flight may have made is left for
// that entry's lookup, which maps our offline version to it (taken in here, it
// would be "held locally" and the lookup would send the version again). The
// remote may have no artifact routes at all (the platform): runPuller then
// skips the list with a warning.
import type { Artifact, ArtifactVersion } from '../../../../src-shared/api/artifacts';
import { ApiError, Code } from '../../../../src-shared/errors';
import { storagePathFor } from '../../../services/artifacts/artifactStorage';
import { downloadVersion, hasContent } from './content';
import { changedBy } from '../../apply';
import { callWithRetry, keepUnlisted, perOrganization, retrying, type Puller } from '../../pull';
import { isUnmappedLocalId, translateIds } from '../../idMap';
import { archiveIfDuplicate } from './duplicates';
import { applyRemoteArtifacts, ARTIFACT, markerOf } from './apply';
import { storedContentPath } from './versions';
import type { SyncSession } from '../../session';
import { allVersions, type VersionCreate } from './lookup';
import { inflightSent } from '../../inflightCreates';

/** Versions fetched for the artifacts of the page being applied (prepare -> apply, same objects). */
const fetchedVersions = new WeakMap<Artifact, ArtifactVersion[]>();
/** An item of the page replaced by its state after prepare archived it (an extra copy: duplicates.ts). */
const replaced = new WeakMap<Artifact, Artifact>();
/** Artifacts of the page whose content prepare downloaded (content that arrived counts even when no row changes). */
const downloaded = new WeakSet<Artifact>();

/** The remote itself lacks the bytes (its DATA_LOSS, or the version is gone): nothing to retry. */
const remoteLacksContent = (e: unknown) => e instanceof ApiError && (e.code === Code.DATA_LOSS || e.code === Code.NOT_FOUND);

/** Remote versions that versions of ours in flight (sent, outcome not known yet) may have created: ours, same artifact, hash and size. */
function inflightVersionMatcher(s: SyncSession): (v: ArtifactVersion) => boolean {
  const wanted = inflightSent<VersionCreate>(s.db, 'CreateArtifactVersion').map((e) => translateIds(s.db, e.request));
  return (v) =>
    v.createdByUserId === s.identity.userId &&
    storedContentPath(s.db, v.artifactVersionId) === undefined &&
    wanted.some((w) => w.artifactId === v.artifactId && w.sha256 === v.sha256 && w.sizeBytes === Number(v.sizeBytes));
}

/** Returns whether any content was downloaded. */
async function fetchContent(s: SyncSession, a: Artifact, leaveForLookup: (v: ArtifactVersion) => boolean): Promise<boolean> {
  const current = storedContentPath(s.db, a.artifactVersionId);
  if (current !== undefined && hasContent(s.db, current)) return false;
  const versions = (await allVersions((op, req) => callWithRetry(s, op, req), a.artifactId)).filter((v) => !leaveForLookup(v));
  // Our own offline create, about to be adopted by its marker: its first version's content is already here.
  const marker = markerOf(a);
  const adopting = marker !== undefined && isUnmappedLocalId(s.db, marker);
  let any = false;
  for (const v of versions) {
    if (adopting && v.version === 1) continue;
    const path = storedContentPath(s.db, v.artifactVersionId) ?? storagePathFor(a.artifactId, v.artifactVersionId);
    if (hasContent(s.db, path)) continue;
    try {
      await retrying(s, () => downloadVersion(s.db, s.remote, v, path));
      any = true;
    } catch (e) {
      if (!remoteLacksContent(e)) throw e;
      s.event({
        type: 'warning',
        message: `artifact ${a.artifactId} version ${v.version}: the remote has no content (${(e as Error).message}); kept without it`,
      });
    }
  }
  fetchedVersions.set(a, versions);
  return any;
}

export const artifactsPuller: Puller<Artifact> = {
  resource: 'artifacts',
  collisions: { table: 'artifacts', kind: ARTIFACT },
  readAgain: 'afterPush',
  operation: 'ListArtifacts',
  listField: 'artifacts',
  listing: { by: 'whole', settle: keepUnlisted },
  idOf: (a) => a.artifactId,
  variants: (s) => perOrganization(s).map((v) => ({ ...v, filter: 'include_archived == true', orderBy: 'created_date' })),
  async prepare(s, items) {
    const leaveForLookup = inflightVersionMatcher(s);
    for (const item of items) {
      const a = await archiveIfDuplicate(s, item);
      if (a !== item) replaced.set(item, a);
      if (await fetchContent(s, a, leaveForLookup)) downloaded.add(a);
    }
  },
  /**
   * Counts artifacts inserted or changed here, or whose content arrived (an unchanged re-read in the overlap
   * window counts 0). Applied one by one (each in a savepoint of the page's transaction) to tell which.
   */
  apply(s, items) {
    return items.filter((item) => applyPrepared(s, item)).length;
  },
};

/**
 * Applies one artifact that `prepare` has seen (its versions and content fetched); returns whether it was inserted
 * or changed here, or its content arrived. `force`: whatever its modified date (a refused edit's record, refetch.ts).
 */
export function applyPrepared(s: SyncSession, item: Artifact, options: { force?: boolean } = {}): boolean {
  const a = replaced.get(item) ?? item;
  const written = changedBy(s.applier.stats, () =>
    applyRemoteArtifacts(s.applier, [a], { force: options.force, versionsOf: (x) => fetchedVersions.get(x) }),
  );
  return written > 0 || downloaded.has(a);
}
