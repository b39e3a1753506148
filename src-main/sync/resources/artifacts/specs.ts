// How artifact writes are recorded and replayed.
//
// Uploads and new versions are multipart: the request's file is a temporary
// file that the local write moves into the content store, so the outbox keeps
// the version's storage path instead (transfer.stored) and the push streams the
// stored content from disk (send). Creates carry the metadata marker
// `outpost_client_id = <local id>` on the remote; a version cannot, and is
// found again by author, time and content hash (lookup.ts). Links,
// unlinks and (un)archives are idempotent and resent.
//
// The platform has no artifact routes: an artifact entry sent
// to such a remote stays pending with a message and blocks nothing (push.ts:
// hold), so the user keeps the artifacts locally until the remote is an
// Outpost.
import type { Artifact } from '../../../../src-shared/api/artifacts';
import { ApiError } from '../../../../src-shared/errors';
import { removeFromStore } from '../../../services/artifacts/artifactStorage';
import { localContentPath } from './content';
import { mapLocalId } from '../../idMap';
import { applyRemoteArtifacts, ARTIFACT, ARTIFACT_CLIENT_ID_KEY, IS_ARCHIVED, linkField } from './apply';
import { ARTIFACT_VERSION, setVersionNumber, storedContentPath } from './versions';
import type { OutboxEntry } from '../../types';
import {
  defineSpec,
  dropAll,
  keptWhenRefused,
  onlyNewRecords,
  retryAsAsked,
  type AfterCommit,
  type OpSpec,
  type PushContext,
  type RefusedCreate,
  type Spec,
  type StoredRequest,
  type WireRequest,
} from '../../spec';
import { setById, wireRequest } from '../../specForms';
import { metadataOut } from '../../wireEncode';
import { findCreatedArtifact, findCreatedVersion, type FoundArtifact, type FoundVersion } from './lookup';

/** The stored form of an uploaded file: the version's content in the local store. */
interface StoredFile {
  readonly storagePath: string;
  readonly fileName: string;
  readonly mimeType: string;
}

function storedFile(ctx: { db: PushContext['db'] }, file: { fileName: string; mimeType: string }, versionId: string): StoredFile {
  const storagePath = storedContentPath(ctx.db, versionId);
  // (Runs in the write's transaction: a throw rolls the upload back rather than queue an entry that cannot be sent.)
  if (storagePath === undefined) throw ApiError.internal(`artifact version ${versionId} has no stored content to sync`);
  return { storagePath, fileName: file.fileName, mimeType: file.mimeType };
}

/** An upload as the outbox keeps it (`R`: the validated request): its file named by the version's stored content. */
type WithStoredFile<R> = Omit<R, 'file'> & { file: StoredFile };

/** Sends a multipart request with its file streamed from the local content store. */
async function sendStored<R>(
  p: PushContext,
  request: WithStoredFile<R>,
  entry: Pick<OutboxEntry, 'operation'>,
): Promise<{ artifact: Artifact }> {
  const { file } = request;
  // (Both uploads, of an artifact and of a version, answer with the artifact.)
  return p.call(entry.operation, {
    ...request,
    file: { path: localContentPath(p.db, file.storagePath), fileName: file.fileName, mimeType: file.mimeType },
  }) as Promise<{ artifact: Artifact }>;
}

const localIdOf = (entry: OutboxEntry, resource: string) => entry.createdIds.find((c) => c.resource === resource)?.id;

/** What a create answers, or its lookup finds (with the id of the artifact's first version). */
type ArtifactCreated = { artifact: Artifact } & Partial<FoundArtifact>;

type ArtifactCreate = 'UploadArtifact' | 'CreateStructuredArtifact';

/** An artifact made here: its versions, links and metadata go with it, then its versions' content files. */
const discardArtifact: RefusedCreate['discard'] = (ctx, made, held): AfterCommit => {
  const paths = ctx.db
    .all<{ storage_path: string }>(
      'SELECT v.storage_path FROM artifact_versions v JOIN artifacts a ON a.pk = v.artifact_pk WHERE a.id = ?',
      [made[0].id],
    )
    .map((r) => r.storage_path);
  held.deleteHeld(made);
  return () => paths.forEach((p) => removeFromStore(ctx.engine.dataDir, p));
};

/** What an artifact create shares: created ids, the marker lookup, its wire request, mapping the result. */
function artifactCreate<K extends ArtifactCreate, Stored extends Pick<StoredRequest<K>, 'organizationId' | 'metadata'>, Encoded>(
  operation: K,
): Pick<
  Spec<K, ArtifactCreated, Stored, Encoded>,
  'operation' | 'targets' | 'dropField' | 'notFound' | 'create' | 'encode' | 'applyResult'
> {
  return {
    operation,
    ...onlyNewRecords,
    // Its metadata carries the marker of its local id (the only member whose wire form differs).
    encode: (req, entry) =>
      wireRequest(req, {
        metadata: (r) => [
          ...(metadataOut(r.metadata) ?? []).filter((m) => m.key.name !== ARTIFACT_CLIENT_ID_KEY),
          { key: { name: ARTIFACT_CLIENT_ID_KEY, type: 'METADATA_KEY_TYPE_STRING' }, stringValue: localIdOf(entry, ARTIFACT)! },
        ],
      }) as Encoded,
    create: {
      created: (_req, res) => [
        { resource: ARTIFACT, id: res.artifact.artifactId },
        { resource: ARTIFACT_VERSION, id: res.artifact.artifactVersionId },
      ],
      find: (p, entry) => findCreatedArtifact(p, entry, localIdOf(entry, ARTIFACT)!),
      refused: { ...retryAsAsked, discard: discardArtifact },
    },
    applyResult(p, entry, res) {
      const a = res.artifact;
      mapLocalId(p, ARTIFACT, localIdOf(entry, ARTIFACT)!, a.artifactId);
      const localVersion = localIdOf(entry, ARTIFACT_VERSION);
      // A create's response is the artifact at version 1; a found one may have more versions since.
      if (localVersion) mapLocalId(p, ARTIFACT_VERSION, localVersion, res.firstVersionId ?? a.artifactVersionId);
      applyRemoteArtifacts(p.apply, [a], { excludeSeq: entry.seq });
    },
  };
}

export const uploadArtifactSpec = defineSpec<
  'UploadArtifact',
  ArtifactCreated,
  WithStoredFile<StoredRequest<'UploadArtifact'>>,
  WithStoredFile<WireRequest<'UploadArtifact'>>
>({
  ...artifactCreate('UploadArtifact'),
  transfer: {
    asyncWrite: true,
    stored: (ctx, req, res) => ({ ...req, file: storedFile(ctx, req.file, res.artifact.artifactVersionId) }),
    send: sendStored,
  },
});

export const createStructuredArtifactSpec = defineSpec<'CreateStructuredArtifact', ArtifactCreated>(
  artifactCreate('CreateStructuredArtifact'),
);

/** A new version as the outbox keeps it: its content stored, with the hash and size that find it again. */
interface StoredVersion {
  readonly artifactId: string;
  readonly file: StoredFile;
  readonly sha256: string;
  readonly sizeBytes: number;
}

export const createArtifactVersionSpec = defineSpec<
  'CreateArtifactVersion',
  { artifact: Artifact } & Partial<FoundVersion>,
  StoredVersion,
  WithStoredFile<WireRequest<'CreateArtifactVersion'>>
>({
  operation: 'CreateArtifactVersion',
  // `version` is no merged field: it orders the entry with the artifact's others and keeps the local current version while it waits.
  targets: (req) => [{ resource: ARTIFACT, recordId: req.artifactId, fields: ['version'] }],
  dropField: dropAll,
  notFound: 'conflict',
  create: {
    created: (_req, res) => [{ resource: ARTIFACT_VERSION, id: res.artifact.artifactVersionId }],
    find: findCreatedVersion,
    // (Not discardable: the artifact it changed stays.)
    refused: keptWhenRefused('it changed another record too'),
  },
  transfer: {
    asyncWrite: true,
    // The hash and size find the version again after an unknown outcome.
    stored: (ctx, req, res) => ({
      artifactId: req.artifactId,
      file: storedFile(ctx, req.file, res.artifact.artifactVersionId),
      sha256: res.artifact.sha256,
      sizeBytes: Number(res.artifact.sizeBytes),
    }),
    send: sendStored,
  },
  encode: (req) => ({ artifactId: req.artifactId, file: req.file }),
  applyResult(p, entry, res) {
    const a = res.artifact;
    const versionId = res.createdVersion?.artifactVersionId ?? a.artifactVersionId;
    mapLocalId(p, ARTIFACT_VERSION, entry.createdIds[0].id, versionId);
    const pk = p.db.get<{ pk: number }>('SELECT pk FROM artifacts WHERE id = ?', [a.artifactId])?.pk;
    if (pk !== undefined) setVersionNumber(p.db, pk, versionId, res.createdVersion?.version ?? a.version);
    applyRemoteArtifacts(p.apply, [a], { excludeSeq: entry.seq });
  },
});

const applyArtifact = (p: PushContext, entry: Pick<OutboxEntry, 'seq'>, res: { artifact?: Artifact } | undefined) => {
  if (res?.artifact) applyRemoteArtifacts(p.apply, [res.artifact], { excludeSeq: entry.seq });
};

function linkSpec(operation: 'LinkArtifact' | 'UnlinkArtifact'): OpSpec {
  // (An unlink of a link already gone is done without an answer.)
  return defineSpec<typeof operation, { artifact?: Artifact } | undefined>({
    operation,
    targets: (req) => [{ resource: ARTIFACT, recordId: req.artifactId, fields: [linkField(req)] }],
    encode: (req) => wireRequest(req, {}) as WireRequest<typeof operation>,
    applyResult: applyArtifact,
    // Unlinking a link the remote no longer has reaches the desired state.
    notFound: operation === 'UnlinkArtifact' ? 'done' : 'conflict',
    dropField: dropAll,
  });
}

const archiveSpec = (operation: 'ArchiveArtifact' | 'UnarchiveArtifact'): OpSpec =>
  setById<typeof operation, { artifact?: Artifact } | undefined>({
    operation,
    resource: ARTIFACT,
    id: 'artifactId',
    field: IS_ARCHIVED,
    applyResult: applyArtifact,
  });

export const artifactSpecs: readonly OpSpec[] = [
  uploadArtifactSpec,
  createStructuredArtifactSpec,
  createArtifactVersionSpec,
  linkSpec('LinkArtifact'),
  linkSpec('UnlinkArtifact'),
  archiveSpec('ArchiveArtifact'),
  archiveSpec('UnarchiveArtifact'),
];
