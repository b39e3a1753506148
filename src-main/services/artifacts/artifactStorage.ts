// Artifact content on disk: `<dataDir>/artifacts/<artifact_id>/<artifact_version_id>`,
// one immutable file per version. Uploads arrive as temporary files the router
// streamed under `<dataDir>/tmp/`; they are hashed by streaming and moved
// (renamed) into place, never read into memory whole.
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../../src-shared/errors';

export const DEFAULT_MAX_ARTIFACT_BYTES = 256 * 1024 * 1024;

/** The artifact size limit: OUTPOST_MAX_ARTIFACT_BYTES (a positive integer) or 256 MiB. Read per request. */
export function maxArtifactBytes(): number {
  const v = process.env.OUTPOST_MAX_ARTIFACT_BYTES;
  if (v && /^\d+$/.test(v.trim()) && Number(v) > 0) return Number(v);
  return DEFAULT_MAX_ARTIFACT_BYTES;
}

export function assertWithinLimit(size: number, field: string): void {
  const max = maxArtifactBytes();
  if (size > max) throw ApiError.invalid(field, `the content is ${size} bytes; the artifact size limit is ${max} bytes`);
}

export const artifactsRoot = (dataDir: string) => join(dataDir, 'artifacts');
export const storagePathFor = (artifactId: string, versionId: string) => `${artifactId}/${versionId}`;
export const contentPath = (dataDir: string, storagePath: string) => join(artifactsRoot(dataDir), storagePath);

/**
 * The temporary file of a multipart upload. Only files the router wrote under
 * `<dataDir>/tmp/upload-*` are accepted, so a request can never name an
 * arbitrary path (the IPC bridge passes request objects through).
 */
export function checkedUploadPath(dataDir: string, path: string): string {
  const abs = resolve(path);
  if (dirname(abs) !== resolve(join(dataDir, 'tmp')) || !basename(abs).startsWith('upload-')) {
    throw ApiError.invalid('file', 'is not an uploaded file');
  }
  return abs;
}

export interface FileFacts {
  readonly size: number;
  readonly sha256: string;
}

/** Size (checked against the limit before hashing) and SHA-256 of a file, streamed. */
export async function inspectUpload(path: string): Promise<FileFacts> {
  const size = statSync(path).size;
  assertWithinLimit(size, 'file');
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return { size, sha256: hash.digest('hex') };
}

export function factsOf(content: Buffer): FileFacts {
  return { size: content.length, sha256: createHash('sha256').update(content).digest('hex') };
}

/** Moves an upload into the store (same file system: a rename). */
export function moveIntoStore(dataDir: string, tmpPath: string, storagePath: string): void {
  const target = contentPath(dataDir, storagePath);
  mkdirSync(dirname(target), { recursive: true });
  renameSync(tmpPath, target);
}

export function writeIntoStore(dataDir: string, storagePath: string, content: Buffer): void {
  const target = contentPath(dataDir, storagePath);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content, { flag: 'wx' });
}

/** Best-effort removal of content written by a transaction that then failed. */
export function removeFromStore(dataDir: string, storagePath: string): void {
  rmSync(contentPath(dataDir, storagePath), { force: true });
}
