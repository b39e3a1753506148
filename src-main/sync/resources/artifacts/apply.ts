// Artifacts as a replicated resource. Title, file facts and metadata are set
// at creation (the API has no artifact update), so the synced, mergeable
// fields are `is_archived` and one field per link, `link:<relation>:<entity
// type>:<entity id>`, whose value is the artifact version the link points at
// (null: no such link). Two people linking different things, or one archiving
// while another links, both keep their change; the same link re-pointed or
// removed on both sides is a field conflict. Versions are append-only
// (versions.ts). The remote copy of an offline create carries the
// metadata marker `outpost_client_id` (as annotations do); it is never stored
// locally.
import type { Artifact, ArtifactVersion } from '../../../../src-shared/api/artifacts';
import { ArtifactCreatedVia, ArtifactStorageClass } from '../../../../src-shared/api/artifacts';
import { entityTypeName, relationName } from '../../../services/artifacts/artifactRows';
import type { Db } from '../../../db/database';
import {
  deleteArtifactLinks,
  deleteLink,
  replaceArtifactMetadata,
  setArtifactColumns,
  upsertLink,
  upsertRemoteArtifact,
} from '../../../services/artifacts/artifactStore';
import { storedState, type Applier, type ApplyContext, type ApplyOptions } from '../../apply';
import { mapLocalId } from '../../idMap';
import { baseFields, forgetBase, mergeFields } from '../../merge';
import { finishEntry, hasPending, isOpen, loadEntry } from '../../outbox';
import { wireMicros } from '../../time';
import { ARTIFACT_VERSION, hasUnpushedVersions, setVersionNumber, upsertVersions } from './versions';
import { ensureOrganization } from '../../identity';

export const ARTIFACT = 'artifact';
export const ARTIFACT_CLIENT_ID_KEY = 'outpost_client_id';
export const IS_ARCHIVED = 'is_archived';

interface Row {
  pk: number;
  id: string;
  modified_date: number;
  archived_date: number | null;
  artifact_version_id: string;
}

interface LinkKeyParts {
  relation: string;
  entityType: string;
  entityId: string;
}

const short = (name: string, prefix: string) => name.replace(prefix, '');
/** The synced field of one link. */
export const linkField = (l: LinkKeyParts) =>
  `link:${short(l.relation, 'ARTIFACT_LINK_RELATION_')}:${short(l.entityType, 'ARTIFACT_ENTITY_TYPE_')}:${l.entityId}`;

/** The link a synced field names (undefined: not a link's field). */
export function parseLinkField(field: string): LinkKeyParts | undefined {
  const m = /^link:([A-Z_]+):([A-Z_]+):(.+)$/.exec(field);
  return m ? { relation: `ARTIFACT_LINK_RELATION_${m[1]}`, entityType: `ARTIFACT_ENTITY_TYPE_${m[2]}`, entityId: m[3] } : undefined;
}

export const markerOf = (a: Pick<Artifact, 'metadata'>) => a.metadata.find((m) => m.key.name === ARTIFACT_CLIENT_ID_KEY)?.stringValue;

/** Synced fields of a wire artifact. */
export function artifactFields(a: Pick<Artifact, 'isArchived' | 'links'>): Record<string, unknown> {
  const out: Record<string, unknown> = { [IS_ARCHIVED]: a.isArchived };
  for (const l of a.links) out[linkField(l)] = l.artifactVersionId;
  return out;
}

function rowFields(db: Db, r: Row): Record<string, unknown> {
  const out: Record<string, unknown> = { [IS_ARCHIVED]: r.archived_date !== null };
  for (const l of db.all<{ relation: number; entity_type: number; entity_id: string; artifact_version_id: string }>(
    'SELECT relation, entity_type, entity_id, artifact_version_id FROM artifact_links WHERE artifact_pk = ?',
    [r.pk],
  )) {
    out[linkField({ relation: relationName(l.relation), entityType: entityTypeName(l.entity_type), entityId: l.entity_id })] =
      l.artifact_version_id;
  }
  return out;
}

const rowOf = (db: Db, id: string) =>
  db.get<Row>('SELECT pk, id, modified_date, archived_date, artifact_version_id FROM artifacts WHERE id = ?', [id]);

export function snapshotArtifact(db: Db, id: string): { version: number; fields: Record<string, unknown> } | undefined {
  const r = rowOf(db, id);
  return r && { version: r.modified_date, fields: rowFields(db, r) };
}

function writeField(db: Db, r: Row, a: Artifact, field: string, value: unknown): void {
  if (field === IS_ARCHIVED) {
    setArtifactColumns(db, r.pk, { archived_date: value ? (wireMicros(a.archivedDate) ?? Date.now() * 1000) : null });
    return;
  }
  const link = parseLinkField(field);
  if (!link) return;
  if (value === null || value === undefined) deleteLink(db, r.pk, link as never);
  else upsertLink(db, r.pk, link as never, String(value));
}

/** Everything a pull may write of one artifact: its row, metadata, links and versions. */
const stateOf = (db: Db, pk: number) =>
  storedState(db, [
    ['SELECT * FROM artifacts WHERE pk = ?', [pk]],
    ['SELECT * FROM artifact_metadata WHERE artifact_pk = ? ORDER BY position', [pk]],
    ['SELECT * FROM artifact_links WHERE artifact_pk = ? ORDER BY relation, entity_type, entity_id', [pk]],
    ['SELECT * FROM artifact_versions WHERE artifact_pk = ? ORDER BY pk', [pk]],
  ]);

/** The artifact's own columns: everything but the synced fields, which apply as a whole or merge. */
function upsertRow(db: Db, a: Artifact, keepCurrentVersion: boolean): number {
  ensureOrganization(db, a.organizationId);
  const pk = upsertRemoteArtifact(
    db,
    {
      id: a.artifactId,
      organization_id: a.organizationId,
      created_by_user_id: a.createdByUserId,
      modified_by_user_id: a.createdByUserId,
      title: a.title,
      storage_class: ArtifactStorageClass.numbers[a.storageClass],
      created_via: ArtifactCreatedVia.numbers[a.createdVia],
      created_date: wireMicros(a.createdDate),
      modified_date: wireMicros(a.modifiedDate),
      archived_date: wireMicros(a.archivedDate),
      artifact_version_id: a.artifactVersionId,
      version: a.version,
      version_created_date: wireMicros(a.versionCreatedDate),
      file_name: a.fileName,
      file_type: a.fileType,
      mime_type: a.mimeType,
      size_bytes: Number(a.sizeBytes),
      sha256: a.sha256,
    },
    keepCurrentVersion,
  );
  replaceArtifactMetadata(db, pk, a.metadata.filter((m) => m.key.name !== ARTIFACT_CLIENT_ID_KEY) as never);
  return pk;
}

/**
 * An offline create whose outcome was unknown, met by a pull before its push resolved it (the marker names
 * the local id): the local record becomes the remote one instead of a second copy.
 */
function adoptByMarker(ctx: ApplyContext, a: Artifact, versions: readonly ArtifactVersion[] | undefined): void {
  const marker = markerOf(a);
  if (!marker || marker === a.artifactId) return;
  const row = ctx.db.get<{ created_by_seq: number; remote_id: string | null }>(
    'SELECT created_by_seq, remote_id FROM sync_id_map WHERE local_id = ? AND resource = ?',
    [marker, ARTIFACT],
  );
  if (!row || row.remote_id !== null) return;
  const entry = loadEntry(ctx.db, row.created_by_seq);
  // The created version is the remote's version 1 (the current one unless others were added since).
  const first = a.version === 1 ? a.artifactVersionId : versions?.find((v) => v.version === 1)?.artifactVersionId;
  if (!entry || !first) return; // without its first version's id, the push's lookup settles it
  mapLocalId(ctx, ARTIFACT, marker, a.artifactId);
  for (const c of entry.createdIds) if (c.resource === ARTIFACT_VERSION) mapLocalId(ctx, ARTIFACT_VERSION, c.id, first);
  if (isOpen(entry)) {
    finishEntry(ctx.db, row.created_by_seq, 'done', { result: { artifactId: a.artifactId, adoptedBy: 'pull' } });
    ctx.stats.adopted++;
  }
}

/**
 * Applies remote artifacts in their own transaction: rows, metadata, links and archive state, plus the versions
 * fetched for them (`versionsOf`, content already in the store). A record with pending local edits merges per field.
 */
export function applyRemoteArtifacts(
  applier: Applier,
  list: readonly Artifact[],
  { versionsOf, ...options }: ApplyOptions & { versionsOf?: (a: Artifact) => readonly ArtifactVersion[] | undefined } = {},
): void {
  applier.db.tx(() => {
    const ctx = applier.context(options);
    for (const a of list) applyArtifact(ctx, a, versionsOf?.(a));
  });
}

function applyArtifact(ctx: ApplyContext, a: Artifact, versions: readonly ArtifactVersion[] | undefined): void {
  const { db } = ctx;
  if (!rowOf(db, a.artifactId)) adoptByMarker(ctx, a, versions);
  const row = rowOf(db, a.artifactId);
  const pending = !!row && hasPending(db, ARTIFACT, row.id, ctx.excludeSeq);
  if (
    row &&
    !pending &&
    !ctx.force &&
    row.modified_date === wireMicros(a.modifiedDate) &&
    row.artifact_version_id === a.artifactVersionId &&
    !versions
  ) {
    ctx.stats.unchanged++;
    return;
  }
  const before = row && stateOf(db, row.pk);
  // While an offline version waits for its push, the local current version stays the newest one.
  const keepCurrent = !!row && hasUnpushedVersions(db, row.pk);
  const pk = upsertRow(db, a, keepCurrent);
  if (versions) upsertVersions(db, pk, versions);
  // The current version's number is the remote's (our pushed version included).
  if (!keepCurrent) setVersionNumber(db, pk, a.artifactVersionId, a.version);
  if (!row || !pending) {
    setArtifactColumns(db, pk, { archived_date: wireMicros(a.archivedDate), modified_date: wireMicros(a.modifiedDate) });
    deleteArtifactLinks(db, pk);
    for (const l of a.links) upsertLink(db, pk, l, l.artifactVersionId);
    if (row) forgetBase(db, ARTIFACT, row.id);
  } else {
    const local = rowFields(db, row);
    const remote = artifactFields(a);
    // A link absent on one side is a null field there (mergeFields walks the remote's fields).
    for (const f of [...Object.keys(local), ...Object.keys(baseFields(db, ARTIFACT, row.id) ?? {})]) if (!(f in remote)) remote[f] = null;
    const stillPending = mergeFields(ctx, {
      resource: ARTIFACT,
      recordId: row.id,
      local,
      remote,
      remoteTime: wireMicros(a.modifiedDate) ?? 0,
      write: (field, value) => writeField(db, row, a, field, value),
    });
    if (!stillPending) setArtifactColumns(db, pk, { modified_date: wireMicros(a.modifiedDate) });
  }
  // Counted as updated only when something was written (versions fetched again, a merge that takes nothing: unchanged).
  if (!row) ctx.stats.inserted++;
  else if (stateOf(db, row.pk) !== before) ctx.stats.updated++;
  else ctx.stats.unchanged++;
}
