// Artifact operations -> artifactsService.
import type { artifactOperations } from '../../../src-shared/api/artifacts';
import type { HandlerMap } from '../common/handler';
import {
  archiveArtifact,
  createArtifactVersion,
  createStructuredArtifact,
  downloadArtifactContent,
  getArtifact,
  linkArtifact,
  listArtifacts,
  listArtifactVersions,
  unarchiveArtifact,
  unlinkArtifact,
  uploadArtifact,
} from './artifactsService';

export const artifactHandlers: HandlerMap<typeof artifactOperations> = {
  ListArtifacts: (ctx, req) => listArtifacts(ctx, req),
  UploadArtifact: (ctx, req) => uploadArtifact(ctx, req),
  CreateStructuredArtifact: (ctx, req) => createStructuredArtifact(ctx, req),
  GetArtifact: (ctx, req) => getArtifact(ctx, req.artifactId),
  DownloadArtifactContent: (ctx, req) => downloadArtifactContent(ctx, req),
  CreateArtifactVersion: (ctx, req) => createArtifactVersion(ctx, req),
  ListArtifactVersions: (ctx, req) => listArtifactVersions(ctx, req),
  LinkArtifact: (ctx, req) => linkArtifact(ctx, req),
  UnlinkArtifact: (ctx, req) => unlinkArtifact(ctx, req),
  ArchiveArtifact: (ctx, req) => archiveArtifact(ctx, req.artifactId),
  UnarchiveArtifact: (ctx, req) => unarchiveArtifact(ctx, req.artifactId),
};
