// Artifact helpers for the sync tests: staging a multipart upload the way the
// HTTP router does (a temporary file under <dataDir>/tmp/upload-*), writes on
// the remote as its user, and a comparable view of a store's artifacts with a
// hash of every version's content file.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OperationName } from '../../src-shared/operations';
import { DEFAULT_USER_NAME } from '../../src-main/auth/identity';
import { loadMetadata } from '../../src-main/db/childRows';
import type { Db } from '../../src-main/db/database';
import type { Engine } from '../../src-main/engine';
import { contentPath } from '../../src-main/services/artifacts/artifactStorage';
import { invoke } from '../../src-main/services/invoke';
import { callerOf } from './helpers';

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** Bytes that compress badly (a few MB of random data). */
export const binary = (size: number) => randomBytes(size);

/** The multipart file part as the router hands it to the handler. */
export function stageUpload(dataDir: string, bytes: Buffer | string, fileName: string, mimeType = 'application/octet-stream') {
  const dir = join(dataDir, 'tmp');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `upload-${randomUUID()}`);
  writeFileSync(path, bytes);
  return { path, fileName, mimeType, encoding: '', size: Buffer.byteLength(bytes) };
}

/** Calls an operation on the remote's engine as its default user (someone working directly on the remote). */
export const onRemote = (engine: Engine, op: OperationName, request: unknown): Promise<any> =>
  invoke({ engine, db: engine.db, caller: { ...callerOf(engine.db, DEFAULT_USER_NAME), owner: true } }, op, request);

export interface ArtifactView {
  id: string;
  title: string;
  version: number;
  currentVersionId: string;
  archived: boolean;
  sha256: string;
  metadata: unknown[];
  links: { relation: number; entityType: number; entityId: string; versionId: string }[];
  versions: { id: string; version: number; sha256: string; size: number; contentSha: string | null }[];
}

/** Every artifact of a store, without sync's marker, with the hash of each version's stored content. */
export function artifactView(engine: Engine): ArtifactView[] {
  const db: Db = engine.db;
  const rows = db.all<{
    pk: number;
    id: string;
    title: string;
    version: number;
    artifact_version_id: string;
    archived_date: number | null;
    sha256: string;
  }>('SELECT pk, id, title, version, artifact_version_id, archived_date, sha256 FROM artifacts ORDER BY title');
  const metadata = loadMetadata(
    db,
    'artifact_metadata',
    'artifact_pk',
    rows.map((r) => r.pk),
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    version: r.version,
    currentVersionId: r.artifact_version_id,
    archived: r.archived_date !== null,
    sha256: r.sha256,
    metadata: (metadata.get(r.pk) ?? []).filter((m) => m.key.name !== 'outpost_client_id'),
    links: db
      .all<{ relation: number; entity_type: number; entity_id: string; artifact_version_id: string }>(
        'SELECT relation, entity_type, entity_id, artifact_version_id FROM artifact_links WHERE artifact_pk = ? ORDER BY relation, entity_type, entity_id',
        [r.pk],
      )
      .map((l) => ({ relation: l.relation, entityType: l.entity_type, entityId: l.entity_id, versionId: l.artifact_version_id })),
    versions: db
      .all<{ id: string; version: number; sha256: string; size_bytes: number; storage_path: string }>(
        'SELECT id, version, sha256, size_bytes, storage_path FROM artifact_versions WHERE artifact_pk = ? ORDER BY version',
        [r.pk],
      )
      .map((v) => {
        const file = contentPath(engine.dataDir, v.storage_path);
        return {
          id: v.id,
          version: v.version,
          sha256: v.sha256,
          size: v.size_bytes,
          contentSha: existsSync(file) ? sha256(readFileSync(file)) : null,
        };
      }),
  }));
}

export const openEntries = (db: Db) =>
  db.all<{ seq: number; operation: string; state: string; last_error: string | null }>(
    "SELECT seq, operation, state, last_error FROM sync_outbox WHERE state IN ('pending', 'inflight') ORDER BY seq",
  );
