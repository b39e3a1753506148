// Artifact content on the sync path: where a replica's content store is, and
// downloading a remote version's bytes into it. A download is streamed to a
// temporary file, checked against the version's size and SHA-256 (streamed
// again, never read into memory), and only then renamed into place, so a file
// in the store is always complete.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ArtifactVersion } from '../../../../src-shared/api/artifacts';
import { TransportError } from '../../../../src-shared/httpRequest';
import type { Db } from '../../../db/database';
import { contentPath } from '../../../services/artifacts/artifactStorage';
import type { Remote } from '../../remote';

/**
 * The replica's data directory. Sync is handed the database only; an engine always opens
 * `<dataDir>/outpost.sqlite` (engine.ts), so the data directory is the database file's.
 */
export const dataDirOf = (db: Db): string => dirname(db.raw.name);

/** Absolute path of a stored version's content. */
export const localContentPath = (db: Db, storagePath: string): string => contentPath(dataDirOf(db), storagePath);

export const hasContent = (db: Db, storagePath: string): boolean => existsSync(localContentPath(db, storagePath));

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * Downloads one version's content into the store at `storagePath`. A size or hash mismatch is a lost
 * body (TransportError: retried like any interrupted transfer).
 */
export async function downloadVersion(db: Db, remote: Remote, v: ArtifactVersion, storagePath: string): Promise<void> {
  const dataDir = dataDirOf(db);
  const tmpDir = join(dataDir, 'tmp');
  mkdirSync(tmpDir, { recursive: true });
  const tmp = join(tmpDir, `sync-download-${randomUUID()}`);
  try {
    const { bytes } = await remote.download('DownloadArtifactContent', { artifactId: v.artifactId, version: v.version }, tmp);
    if (bytes !== Number(v.sizeBytes))
      throw new TransportError(`artifact ${v.artifactId} version ${v.version}: ${bytes} bytes arrived, ${v.sizeBytes} expected`);
    const sha = await sha256Of(tmp);
    if (v.sha256 && sha !== v.sha256)
      throw new TransportError(`artifact ${v.artifactId} version ${v.version}: content hash ${sha} differs from the remote's ${v.sha256}`);
    const target = contentPath(dataDir, storagePath);
    mkdirSync(dirname(target), { recursive: true });
    renameSync(tmp, target);
  } finally {
    rmSync(tmp, { force: true });
  }
}
