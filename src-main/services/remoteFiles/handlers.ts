// RemoteFileService operations (+ the multipart upload and the content extension) -> remoteFilesService.
import type { remoteFileOperations } from '../../../src-shared/api/remoteFiles';
import type { HandlerMap } from '../common/handler';
import {
  createRemoteFile,
  deleteRemoteFiles,
  getRemoteFile,
  getRemoteFileContent,
  getRemoteFileDownloadUrl,
  listRemoteFiles,
  updateRemoteFile,
  uploadRemoteFile,
} from './remoteFilesService';

export const remoteFileHandlers: HandlerMap<typeof remoteFileOperations> = {
  UploadRemoteFile: (ctx, req) => uploadRemoteFile(ctx, req),
  GetRemoteFile: (ctx, req) => getRemoteFile(ctx, req.remoteFileId),
  CreateRemoteFile: (ctx, req) => createRemoteFile(ctx, req),
  ListRemoteFiles: (ctx, req) => listRemoteFiles(ctx, req),
  UpdateRemoteFile: (ctx, req) => updateRemoteFile(ctx, req.remoteFile, req.updateMask),
  DeleteRemoteFile: (ctx, req) => (deleteRemoteFiles(ctx, [req.remoteFileId]), {}),
  BatchDeleteRemoteFiles: (ctx, req) => (deleteRemoteFiles(ctx, req.remoteFileIds), {}),
  GetRemoteFileDownloadUrl: (ctx, req) => getRemoteFileDownloadUrl(ctx, req.remoteFileId),
  GetRemoteFileContent: (ctx, req) => getRemoteFileContent(ctx, req),
};
