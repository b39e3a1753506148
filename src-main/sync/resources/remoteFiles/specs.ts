// How an upload (UploadRemoteFile, multipart) is recorded and replayed.
//
// The outbox keeps the validated request as JSON, but its `file.path` is a
// temporary file the upload moved into the content store: the stored request
// names the durable copy instead (`file.contentPath`, relative to the store, so
// a moved data directory still works), which `send` streams from disk at push
// time. A stored file gone from disk before the push (DeleteRemoteFile is refused
// on a replica, so only a damaged data directory loses it) leaves nothing to send:
// the entry fails (FAILED_PRECONDITION), and so do the imports that depend on it.
//
// Exactly once: the upload's `entityId` is chosen by the client (a random UUID
// for a test-report import), so an upload whose outcome is unknown is looked
// up by it (ListRemoteFiles `entity_id == ..`; without filters, a newest-first
// scan back to the first send), together with its file name and size, made by
// us at or after the first send, and not a file we already hold.
import { dirname } from 'node:path';
import type { RemoteFile } from '../../../../src-shared/api/remoteFiles';
import { contentFilePath, removeContent } from '../../../services/remoteFiles/contentStore';
import { mapLocalId, unclaimed } from '../../idMap';
import { wireMicros } from '../../time';
import { madeSince } from '../../inflightCreates';
import { REMOTE_FILE } from './ids';
import {
  defineSpec,
  onlyNewRecords,
  retryAsAsked,
  type EntryOf,
  type OpSpec,
  type PushContext,
  type StoredRequest,
  type WireRequest,
  type WireResponse,
} from '../../spec';
import { wireRequest } from '../../specForms';
import { compact } from '../../wireEncode';
import { filterUnsupported, listPages, quote } from '../../remoteQuery';

type Upload = StoredRequest<'UploadRemoteFile'>;
/** The upload as the outbox keeps it: its temporary file is gone by then; its content is in the content store (relative path). */
type StoredUpload = Omit<Upload, 'file'> & { file: Omit<Upload['file'], 'path'> & { contentPath: string } };
/** The wire request with the file still named by its place in the content store (send reads it from there). */
type EncodedUpload = Omit<WireRequest<'UploadRemoteFile'>, 'file'> & {
  file: { contentPath: string; fileName: string; mimeType: string; encoding?: string };
};

/** The replica's data directory: an engine always opens `<dataDir>/outpost.sqlite` (engine.ts). */
const dataDirOf = (p: PushContext) => dirname(p.db.raw.name);

function isOurUpload(p: PushContext, entry: EntryOf<StoredUpload>, f: RemoteFile): boolean {
  const req = entry.request;
  if (f.entityId !== req.entityId || f.fileName !== req.file.fileName.trim() || Number(f.fileSize) !== req.file.size) return false;
  if (!madeSince(f, entry.firstSentServerTime, p.userId)) return false;
  // Not a file some local record already stands for.
  return unclaimed(p.db, 'remote_files', f.remoteFileId);
}

async function findUpload(p: PushContext, entry: EntryOf<StoredUpload>): Promise<RemoteFile | undefined> {
  const organizationId = entry.request.organizationId;
  const feature = 'ListRemoteFiles:entity_id';
  if (p.features.celFilter.get(feature) !== false) {
    try {
      for await (const page of listPages<RemoteFile>(p.call, 'ListRemoteFiles', 'remoteFiles', {
        filter: `entity_id == ${quote(entry.request.entityId)}`,
        pageSize: 1000,
        organizationId,
      })) {
        p.features.celFilter.set(feature, true);
        const found = page.find((f) => isOurUpload(p, entry, f));
        if (found) return found;
      }
      return undefined;
    } catch (e) {
      if (!filterUnsupported(e)) throw e;
      p.features.celFilter.set(feature, false);
    }
  }
  // No filters: newest-created first (the list's default order), back to just before the first send.
  const floor = entry.firstSentServerTime === null ? -Infinity : entry.firstSentServerTime - 60_000_000;
  for await (const page of listPages<RemoteFile>(p.call, 'ListRemoteFiles', 'remoteFiles', {
    orderBy: 'created_date desc',
    pageSize: 1000,
    organizationId,
  })) {
    for (const f of page) {
      if (isOurUpload(p, entry, f)) return f;
      if ((wireMicros(f.createdDate) ?? 0) < floor) return undefined;
    }
  }
  return undefined;
}

export const uploadRemoteFileSpec = defineSpec<
  'UploadRemoteFile',
  WireResponse<'UploadRemoteFile'> | RemoteFile,
  StoredUpload,
  EncodedUpload
>({
  operation: 'UploadRemoteFile',
  ...onlyNewRecords,
  create: {
    created: (_req, res) => [{ resource: REMOTE_FILE, id: res.remoteFile.remoteFileId }],
    find: findUpload,
    refused: {
      ...retryAsAsked,
      // The row, then its content file once that has committed.
      discard(ctx, made, held) {
        const row = ctx.db.get<{ content_path: string | null }>('SELECT content_path FROM remote_files WHERE id = ?', [made[0].id]);
        held.deleteHeld(made);
        return row ? () => removeContent(ctx.engine.dataDir, row.content_path) : undefined;
      },
    },
  },
  transfer: {
    asyncWrite: false,
    stored(ctx, req, res) {
      const row = ctx.db.get<{ content_path: string; file_size: number }>('SELECT content_path, file_size FROM remote_files WHERE id = ?', [
        res.remoteFile.remoteFileId,
      ])!;
      const { path: _temporary, ...file } = req.file;
      return { ...req, file: { ...file, size: row.file_size, contentPath: row.content_path } };
    },
    // The file part is streamed from the content store (the transport reads `file.path` from disk).
    send(p, request) {
      const { contentPath, ...file } = request.file;
      // (The file part as the transport streams it, from a path: not the temporary-file record the table's request names.)
      return p.call('UploadRemoteFile', { ...request, file: { ...file, path: contentFilePath(dataDirOf(p), contentPath) } }) as Promise<
        WireResponse<'UploadRemoteFile'>
      >;
    },
  },
  encode: (req) =>
    wireRequest(req, {
      file: ({ file }) =>
        compact({ contentPath: file.contentPath, fileName: file.fileName, mimeType: file.mimeType, encoding: file.encoding || undefined }),
    }) as EncodedUpload,
  applyResult(p, entry, res) {
    const f = 'remoteFile' in res ? res.remoteFile : res;
    mapLocalId(p, REMOTE_FILE, entry.createdIds[0].id, f.remoteFileId);
  },
});

export const remoteFileSpecs: readonly OpSpec[] = [uploadRemoteFileSpec];
