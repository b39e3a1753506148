// Artifacts: upload / create, read, download, versions, links, archive, list.
// Content is validated (size, hash) before the transaction; each request
// writes its rows in one transaction, and the content file is put in place as
// the transaction's last step so a failed request leaves no row behind.
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import {
  ArtifactCreatedVia,
  ArtifactEntityType,
  ArtifactStorageClass,
  type Artifact,
  type ArtifactCreatedViaName,
  type ArtifactEntityTypeName,
  type ArtifactLinkInput,
  type ArtifactLinkRelationName,
  type ArtifactStorageClassName,
  type ArtifactVersion,
  type CreateStructuredArtifactInput,
  type UploadArtifactInput,
  type UploadedFileInput,
} from '../../../src-shared/api/artifacts';
import type { MetadataValueInput } from '../../../src-shared/api/metadata';
import { nowMicros } from '../../../src-shared/api/time';
import { ApiError, Code } from '../../../src-shared/errors';
import { resolveOrganization, visibleTo } from '../../auth/caller';
import { loadByPks } from '../../db/childRows';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import type { BinaryResult } from '../common/handler';
import { artifactListSpecFor } from './archivedFilter';
import { artifactListSpecArchiveByFilter, artifactVersionListSpec } from './artifactListSpecs';
import { checkLinkShape, writeLinks } from './artifactLinks';
import {
  deleteLink,
  insertArtifactRow,
  insertArtifactVersionRow,
  replaceArtifactMetadata,
  setArtifactColumns,
  type LinkKey,
} from './artifactStore';
import { loadArtifacts, storageClassName, versionToWire, type ArtifactRow, type ArtifactVersionRow } from './artifactRows';
import {
  assertWithinLimit,
  checkedUploadPath,
  contentPath,
  factsOf,
  inspectUpload,
  moveIntoStore,
  removeFromStore,
  storagePathFor,
  writeIntoStore,
  type FileFacts,
} from './artifactStorage';
import { deriveFileType, normalizeMimeType } from './fileType';
import { reportWrite } from '../common/writeScope';

const JSON_MIME = 'application/json';

export function findVisibleArtifact(ctx: RequestContext, artifactId: string): ArtifactRow {
  const scope = visibleTo(ctx.caller, 'organization_id');
  const row = ctx.db.get<ArtifactRow>(`SELECT * FROM artifacts WHERE id = ? AND ${scope.sql}`, [artifactId, ...scope.params]);
  if (!row) throw ApiError.notFound('artifact', artifactId);
  return row;
}

const one = (ctx: RequestContext, pk: number): { artifact: Artifact } => ({ artifact: loadArtifacts(ctx.db, [pk])[0] });

/** The content of one version, and how it gets into the store. */
interface Content {
  readonly fileName: string;
  readonly mimeType: string;
  readonly facts: FileFacts;
  /** Puts the bytes at the storage path (inside the transaction, last). */
  readonly place: (storagePath: string) => void;
}

function uploadedContent(ctx: RequestContext, file: UploadedFileInput, facts: FileFacts, tmpPath: string): Content {
  return {
    fileName: file.fileName,
    mimeType: normalizeMimeType(file.mimeType) || 'application/octet-stream',
    facts,
    place: (storagePath) => moveIntoStore(ctx.engine.dataDir, tmpPath, storagePath),
  };
}

interface NewArtifact {
  readonly organizationId: string;
  readonly title: string;
  readonly storageClass: ArtifactStorageClassName;
  readonly createdVia: ArtifactCreatedViaName;
  readonly content: Content;
  readonly metadata: readonly MetadataValueInput[];
  readonly links: readonly ArtifactLinkInput[];
}

function insertVersion(
  ctx: RequestContext,
  artifact: { pk: number; id: string },
  version: number,
  storageClass: ArtifactStorageClassName,
  content: Content,
  now: number,
): { id: string; fileType: string; storagePath: string } {
  const id = randomUUID();
  const fileType = deriveFileType(storageClass, content.fileName, content.mimeType);
  const storagePath = storagePathFor(artifact.id, id);
  insertArtifactVersionRow(ctx.db, {
    id,
    artifact_pk: artifact.pk,
    version,
    file_name: content.fileName,
    file_type: fileType,
    mime_type: content.mimeType,
    size_bytes: content.facts.size,
    sha256: content.facts.sha256,
    storage_path: storagePath,
    created_date: now,
    created_by_user_id: ctx.caller.userId,
  });
  return { id, fileType, storagePath };
}

function insertArtifact(ctx: RequestContext, a: NewArtifact): { artifact: Artifact } {
  const { db, caller } = ctx;
  let placed: string | undefined;
  try {
    return db.tx(() => {
      const now = nowMicros();
      const id = randomUUID();
      const fileType = deriveFileType(a.storageClass, a.content.fileName, a.content.mimeType);
      const pk = insertArtifactRow(db, {
        id,
        organization_id: a.organizationId,
        created_by_user_id: caller.userId,
        modified_by_user_id: caller.userId,
        title: a.title,
        storage_class: ArtifactStorageClass.numbers[a.storageClass],
        created_via: ArtifactCreatedVia.numbers[a.createdVia],
        created_date: now,
        modified_date: now,
        artifact_version_id: '',
        version: 1,
        version_created_date: now,
        file_name: a.content.fileName,
        file_type: fileType,
        mime_type: a.content.mimeType,
        size_bytes: a.content.facts.size,
        sha256: a.content.facts.sha256,
      });
      const version = insertVersion(ctx, { pk, id }, 1, a.storageClass, a.content, now);
      setArtifactColumns(db, pk, { artifact_version_id: version.id });
      replaceArtifactMetadata(db, pk, a.metadata, 'metadata');
      writeLinks(db, { pk, organization_id: a.organizationId, artifact_version_id: version.id }, a.links, (i) => `links[${i}].`);
      a.content.place(version.storagePath);
      placed = version.storagePath;
      const result = one(ctx, pk);
      // A sync replica appends its outbox entry here, in this transaction (an upload is async: writeScope.ts).
      reportWrite(result);
      return result;
    });
  } catch (e) {
    if (placed) removeFromStore(ctx.engine.dataDir, placed);
    throw e;
  }
}

function createdVia(requested: ArtifactCreatedViaName | undefined, fallback: ArtifactCreatedViaName): ArtifactCreatedViaName {
  return requested === undefined || requested === 'ARTIFACT_CREATED_VIA_UNSPECIFIED' ? fallback : requested;
}

export async function uploadArtifact(ctx: RequestContext, req: UploadArtifactInput): Promise<{ artifact: Artifact }> {
  const organizationId = resolveOrganization(ctx.caller, req.organizationId);
  const tmpPath = checkedUploadPath(ctx.engine.dataDir, req.file.path);
  const title = req.title && req.title.trim() !== '' ? req.title : req.file.fileName;
  if (!title) throw ApiError.invalid('title', 'is required when the file has no name');
  const facts = await inspectUpload(tmpPath);
  return insertArtifact(ctx, {
    organizationId,
    title,
    storageClass: 'ARTIFACT_STORAGE_CLASS_FILE',
    createdVia: createdVia(req.createdVia, 'ARTIFACT_CREATED_VIA_UPLOAD'),
    content: uploadedContent(ctx, req.file, facts, tmpPath),
    metadata: req.metadata ?? [],
    links: req.links ?? [],
  });
}

function structuredContent(ctx: RequestContext, content: Buffer, fileName: string): Content {
  return {
    fileName,
    mimeType: JSON_MIME,
    facts: factsOf(content),
    place: (storagePath) => writeIntoStore(ctx.engine.dataDir, storagePath, content),
  };
}

export function createStructuredArtifact(ctx: RequestContext, req: CreateStructuredArtifactInput): { artifact: Artifact } {
  const organizationId = resolveOrganization(ctx.caller, req.organizationId);
  const content = Buffer.from(JSON.stringify(req.content), 'utf8');
  assertWithinLimit(content.length, 'content');
  return insertArtifact(ctx, {
    organizationId,
    title: req.title,
    storageClass: 'ARTIFACT_STORAGE_CLASS_STRUCTURED',
    createdVia: createdVia(req.createdVia, 'ARTIFACT_CREATED_VIA_API'),
    content: structuredContent(ctx, content, req.fileName ?? ''),
    metadata: req.metadata ?? [],
    links: req.links ?? [],
  });
}

export function getArtifact(ctx: RequestContext, artifactId: string): { artifact: Artifact } {
  return one(ctx, findVisibleArtifact(ctx, artifactId).pk);
}

// -------------------------------------------------------------- versions

export async function createArtifactVersion(
  ctx: RequestContext,
  req: { artifactId: string; file: UploadedFileInput },
): Promise<{ artifact: Artifact }> {
  const tmpPath = checkedUploadPath(ctx.engine.dataDir, req.file.path);
  const before = findVisibleArtifact(ctx, req.artifactId);
  const facts = await inspectUpload(tmpPath);
  const storageClass = storageClassName(before.storage_class);
  let content = uploadedContent(ctx, req.file, facts, tmpPath);
  if (storageClass === 'ARTIFACT_STORAGE_CLASS_STRUCTURED') {
    // A structured artifact stays a JSON document.
    try {
      JSON.parse(readFileSync(tmpPath, 'utf8'));
    } catch {
      throw ApiError.invalid('file', 'the new version of a structured artifact must be a JSON document');
    }
    content = { ...content, mimeType: JSON_MIME };
  }
  let placed: string | undefined;
  try {
    return ctx.db.tx(() => {
      // Re-read inside the transaction: the version number must be the latest.
      const row = findVisibleArtifact(ctx, req.artifactId);
      const now = nowMicros();
      const version = insertVersion(ctx, row, row.version + 1, storageClass, content, now);
      setArtifactColumns(ctx.db, row.pk, {
        artifact_version_id: version.id,
        version: row.version + 1,
        version_created_date: now,
        file_name: content.fileName,
        file_type: version.fileType,
        mime_type: content.mimeType,
        size_bytes: facts.size,
        sha256: facts.sha256,
        modified_date: now,
        modified_by_user_id: ctx.caller.userId,
      });
      content.place(version.storagePath);
      placed = version.storagePath;
      const result = one(ctx, row.pk);
      reportWrite(result); // the outbox entry of a sync replica, in this transaction (writeScope.ts)
      return result;
    });
  } catch (e) {
    if (placed) removeFromStore(ctx.engine.dataDir, placed);
    throw e;
  }
}

export function listArtifactVersions(
  ctx: RequestContext,
  req: ListParams & { artifactId: string },
): { artifactVersions: ArtifactVersion[]; nextPageToken: string } {
  const artifact = findVisibleArtifact(ctx, req.artifactId);
  const page = listPage(
    ctx.db,
    artifactVersionListSpec,
    { pageSize: req.pageSize, pageToken: req.pageToken },
    { sql: 't.artifact_pk = ?', params: [artifact.pk], fingerprint: [artifact.id] },
    ctx.engine.pageTokenSecret,
  );
  return {
    artifactVersions: loadByPks<ArtifactVersionRow>(ctx.db, 'artifact_versions', page.keys).map((v) => versionToWire(v, artifact.id)),
    nextPageToken: page.nextPageToken,
  };
}

export function downloadArtifactContent(ctx: RequestContext, req: { artifactId: string; version?: number }): BinaryResult {
  const artifact = findVisibleArtifact(ctx, req.artifactId);
  const number = req.version === undefined || req.version === 0 ? artifact.version : req.version;
  const v = ctx.db.get<ArtifactVersionRow>('SELECT * FROM artifact_versions WHERE artifact_pk = ? AND version = ?', [artifact.pk, number]);
  if (!v) throw ApiError.notFound('artifact version', `${artifact.id} version ${number}`);
  const path = contentPath(ctx.engine.dataDir, v.storage_path);
  if (!existsSync(path))
    throw new ApiError(Code.DATA_LOSS, `the content of artifact ${artifact.id} version ${number} is missing from the data directory`);
  return {
    contentType: v.mime_type || 'application/octet-stream',
    fileName: v.file_name || `${artifact.id}${v.mime_type === JSON_MIME ? '.json' : ''}`,
    body: createReadStream(path),
    size: v.size_bytes,
  };
}

// ----------------------------------------------------------------- links

interface LinkRequest {
  artifactId: string;
  relation: ArtifactLinkRelationName;
  entityType: ArtifactEntityTypeName;
  entityId: string;
}

function touch(ctx: RequestContext, pk: number): void {
  setArtifactColumns(ctx.db, pk, { modified_date: nowMicros(), modified_by_user_id: ctx.caller.userId });
}

/** Idempotent: linking again keeps one link (re-pointed to the given version). */
export function linkArtifact(ctx: RequestContext, req: LinkRequest & { artifactVersionId?: string }): { artifact: Artifact } {
  return ctx.db.tx(() => {
    const row = findVisibleArtifact(ctx, req.artifactId);
    if (writeLinks(ctx.db, row, [req], () => '')) touch(ctx, row.pk);
    return one(ctx, row.pk);
  });
}

export function unlinkArtifact(ctx: RequestContext, req: LinkRequest): { artifact: Artifact } {
  return ctx.db.tx(() => {
    const row = findVisibleArtifact(ctx, req.artifactId);
    const key: LinkKey = { relation: req.relation, entityType: req.entityType, entityId: req.entityId };
    checkLinkShape(key, '');
    if (!deleteLink(ctx.db, row.pk, key)) {
      throw ApiError.notFound(
        'artifact link',
        `${req.relation.replace('ARTIFACT_LINK_RELATION_', '')} ${req.entityType.replace('ARTIFACT_ENTITY_TYPE_', '')} ${req.entityId}`,
      );
    }
    touch(ctx, row.pk);
    return one(ctx, row.pk);
  });
}

// --------------------------------------------------------------- archive

function setArchived(ctx: RequestContext, artifactId: string, archived: boolean): { artifact: Artifact } {
  return ctx.db.tx(() => {
    const row = findVisibleArtifact(ctx, artifactId);
    if ((row.archived_date !== null) !== archived) {
      const now = nowMicros();
      setArtifactColumns(ctx.db, row.pk, {
        archived_date: archived ? now : null,
        modified_date: now,
        modified_by_user_id: ctx.caller.userId,
      });
    }
    return one(ctx, row.pk);
  });
}

export const archiveArtifact = (ctx: RequestContext, artifactId: string) => setArchived(ctx, artifactId, true);
export const unarchiveArtifact = (ctx: RequestContext, artifactId: string) => setArchived(ctx, artifactId, false);

// ------------------------------------------------------------------ list

const CONVERSATION = ArtifactEntityType.numbers.ARTIFACT_ENTITY_TYPE_CONVERSATION;

/**
 * ListArtifacts: the caller's organization, AND the conversation (a
 * CONVERSATION link to conversationId) when given, AND the filter; archived
 * artifacts only when the filter asks for them (archivedFilter.ts).
 */
export function listArtifacts(
  ctx: RequestContext,
  req: ListParams & { organizationId?: string; conversationId?: string; includeArchived?: boolean },
): { artifacts: Artifact[]; nextPageToken: string } {
  const organizationId = resolveOrganization(ctx.caller, req.organizationId);
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (req.conversationId) {
    // Drive the query from the conversation's links (artifact_links_entity),
    // then sort that handful of rows. The unary `+` keeps SQLite from walking
    // an (organization_id, <order>) index instead and probing every artifact
    // of the organization, which it prefers when the file has no ANALYZE
    // statistics (measured in bench/artifacts.ts: ~20 ms vs ~1 ms at 100k).
    where.push(
      '+t.organization_id = ?',
      't.pk IN (SELECT l.artifact_pk FROM artifact_links l WHERE l.entity_type = ? AND l.entity_id = ?)',
    );
    params.push(organizationId, CONVERSATION, req.conversationId);
  } else {
    where.push('t.organization_id = ?');
    params.push(organizationId);
  }
  const page = listPage(
    ctx.db,
    // include_archived as a parameter (what sync lists with) is the directive set for the whole filter.
    req.includeArchived ? artifactListSpecArchiveByFilter : artifactListSpecFor(req.filter),
    req,
    {
      sql: where.join(' AND '),
      params,
      fingerprint: [organizationId, req.conversationId ?? '', req.includeArchived ? 'archived' : ''],
      gate: ctx.rowGate,
    },
    ctx.engine.pageTokenSecret,
  );
  return { artifacts: loadArtifacts(ctx.db, page.keys), nextPageToken: page.nextPageToken };
}
