// The most bytes a multipart operation's file may have. The router checks it
// while the upload streams in, so an oversized file is refused as soon as it
// passes the limit instead of being written out in full and refused after.
// Operations with a tighter limit than the router's own name it here (the
// service checks it again: the IPC bridge hands files over without streaming).
import type { OperationName } from '../../src-shared/operations';
import { maxArtifactBytes } from '../services/artifacts/artifactStorage';
import { MAX_UPLOAD_BYTES } from './readBody';

export interface UploadLimit {
  readonly bytes: number;
  /** What a refusal says (the file's full size is unknown once the stream stopped). */
  readonly message: string;
}

const artifactLimit = (): UploadLimit => {
  const bytes = maxArtifactBytes();
  return { bytes, message: `the content is larger than the artifact size limit of ${bytes} bytes` };
};

const tighter: Partial<Record<OperationName, () => UploadLimit>> = {
  UploadArtifact: artifactLimit,
  CreateArtifactVersion: artifactLimit,
};

export function uploadLimitFor(operation: OperationName): UploadLimit {
  return tighter[operation]?.() ?? { bytes: MAX_UPLOAD_BYTES, message: `the uploaded file exceeds ${MAX_UPLOAD_BYTES} bytes` };
}
