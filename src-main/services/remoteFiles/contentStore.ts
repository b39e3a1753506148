// The bytes of uploaded remote files: one file per remote file under
// <dataDir>/files/<2 hex>/<remote_file_id>, named by id (never by the client's
// file name), plus the signed, expiring URLs that serve them.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { copyFileSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildPath } from '../../../src-shared/httpRequest';
import { operations } from '../../../src-shared/operations';

export const FILES_DIR = 'files';

/** How long a download URL stays valid. */
export const DOWNLOAD_URL_TTL_SECONDS = 3600;

export function contentFilePath(dataDir: string, contentPath: string): string {
  return join(dataDir, FILES_DIR, contentPath);
}

/** Moves an uploaded temp file into the store; returns its path relative to the store. */
export function storeUploadedFile(dataDir: string, tmpPath: string, remoteFileId: string): string {
  const contentPath = `${remoteFileId.slice(0, 2)}/${remoteFileId}`;
  const dest = contentFilePath(dataDir, contentPath);
  mkdirSync(dirname(dest), { recursive: true });
  try {
    // The upload's temp folder is inside the data directory, so this is normally a rename.
    renameSync(tmpPath, dest);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    copyFileSync(tmpPath, dest);
  }
  return contentPath;
}

export function removeContent(dataDir: string, contentPath: string | null): void {
  if (contentPath) rmSync(contentFilePath(dataDir, contentPath), { force: true });
}

function signature(secret: string, remoteFileId: string, expires: number): string {
  return createHmac('sha256', secret).update(`remote-file-content\n${remoteFileId}\n${expires}`).digest('base64url');
}

/** Path + query of the content URL for a remote file, valid until `expires` (epoch seconds). */
export function signedContentPath(secret: string, remoteFileId: string, expires: number): string {
  // The route comes from the operation table (GetRemoteFileContent), like every other route.
  const { path } = buildPath(operations.GetRemoteFileContent, { remoteFileId });
  return `${path}?expires=${expires}&signature=${signature(secret, remoteFileId, expires)}`;
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

export function checkContentSignature(
  secret: string,
  remoteFileId: string,
  expires: string | undefined,
  sig: string | undefined,
  nowSeconds: number,
): SignatureCheck {
  if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return 'invalid';
  const expected = Buffer.from(signature(secret, remoteFileId, Number(expires)));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return Number(expires) < nowSeconds ? 'expired' : 'valid';
}
