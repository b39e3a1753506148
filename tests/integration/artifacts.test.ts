// Artifacts over real HTTP on loopback: multipart upload (global FormData/Blob
// + fetch), structured artifacts, byte-identical downloads, versions, links,
// archive state, ListArtifacts (order, archived rule, conversation scoping,
// paging), the size limit and organization isolation.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseTimestamp } from '../../src-shared/api/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '../../src-main/services/invoke';
import { loadCaller } from '../../src-main/auth/identity';
import { createFixtures, type Fixtures } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/testServer';
import { expectViolation, expectNotFound, UUID, RFC3339 } from '../support/assertions';

let s: TestServer;
let f: Fixtures;
let otherToken: string;
let annotationId: string;

beforeAll(async () => {
  s = await startTestServer();
  f = createFixtures(s);
  otherToken = s.newToken('x@y', 'Other Org');
  const res = await s.api('POST', '/api/v1/annotations', {
    name: 'spike',
    startTime: '2026-09-01T10:00:00Z',
    endTime: '2026-09-01T10:00:01Z',
    assets: [f.assetName],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  annotationId = res.body.annotation.annotationId;
});
afterAll(async () => s.close());

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

interface FilePart {
  name: string;
  type?: string;
  bytes: Uint8Array | string;
}

async function multipart(path: string, fields: { file?: FilePart; [k: string]: unknown }, token: string = s.token) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'file' || v === undefined) continue;
    form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  if (fields.file) {
    const file = fields.file;
    form.append('file', new Blob([file.bytes as BlobPart], file.type === undefined ? {} : { type: file.type }), file.name);
  }
  const res = await fetch(s.url + path, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

async function upload(fields: { file?: FilePart; [k: string]: unknown }, token?: string) {
  return multipart('/api/v1/artifacts:upload', fields, token);
}

async function uploadOk(fields: { file?: FilePart; [k: string]: unknown }) {
  const res = await upload(fields);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.artifact;
}

async function structured(body: Record<string, unknown>, token?: string) {
  const res = await s.api('POST', '/api/v1/artifacts', body, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.artifact;
}

async function download(artifactId: string, query = '', token = s.token) {
  const res = await fetch(`${s.url}/api/v1/artifacts/${artifactId}/content${query}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const ARTIFACT_KEYS = [
  'artifactId',
  'organizationId',
  'createdByUserId',
  'title',
  'fileName',
  'fileType',
  'storageClass',
  'createdVia',
  'version',
  'versionCreatedDate',
  'artifactVersionId',
  'createdDate',
  'modifiedDate',
  'archivedDate',
  'isArchived',
  'metadata',
  'links',
  'sizeBytes',
  'mimeType',
  'sha256',
].sort();

const countRows = (table: string) => s.engine.db.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)!.n;
const tmpFiles = () => (existsSync(join(s.dataDir, 'tmp')) ? readdirSync(join(s.dataDir, 'tmp')) : []);

describe('UploadArtifact', () => {
  it('stores the file and returns the full artifact shape with metadata and links', async () => {
    const bytes = 'time,pressure\n0,1.5\n1,1.7\n';
    const a = await uploadOk({
      file: { name: 'pressure.CSV', type: 'text/csv', bytes },
      title: 'Pressure trace',
      metadata: [
        { key: { name: 'source', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'bench' },
        { key: { name: 'rate' }, numberValue: 100 },
      ],
      links: [{ relation: 'ARTIFACT_LINK_RELATION_ATTACHED_TO', entityType: 'ARTIFACT_ENTITY_TYPE_ANNOTATION', entityId: annotationId }],
    });
    expect(Object.keys(a).sort()).toEqual(ARTIFACT_KEYS);
    expect(a).toMatchObject({
      organizationId: f.organizationId,
      createdByUserId: f.userId,
      title: 'Pressure trace',
      fileName: 'pressure.CSV',
      fileType: 'csv',
      storageClass: 'ARTIFACT_STORAGE_CLASS_FILE',
      createdVia: 'ARTIFACT_CREATED_VIA_UPLOAD',
      version: 1,
      archivedDate: null,
      isArchived: false,
      metadata: [
        { key: { name: 'source', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'bench' },
        { key: { name: 'rate', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: 100 },
      ],
      links: [
        {
          relation: 'ARTIFACT_LINK_RELATION_ATTACHED_TO',
          entityType: 'ARTIFACT_ENTITY_TYPE_ANNOTATION',
          entityId: annotationId,
          artifactVersionId: a.artifactVersionId,
        },
      ],
      sizeBytes: String(Buffer.byteLength(bytes)),
      mimeType: 'text/csv',
      sha256: sha256(Buffer.from(bytes)),
    });
    expect(a.artifactId).toMatch(UUID);
    expect(a.artifactVersionId).toMatch(UUID);
    expect(a.createdDate).toMatch(RFC3339);
    expect(a.modifiedDate).toBe(a.createdDate);
    expect(a.versionCreatedDate).toBe(a.createdDate);
    // the content lives under <dataDir>/artifacts/, and the temporary upload is gone
    expect(existsSync(join(s.dataDir, 'artifacts', a.artifactId, a.artifactVersionId))).toBe(true);
    expect(tmpFiles()).toEqual([]);
    // GetArtifact returns the same object
    const got = await s.api('GET', `/api/v1/artifacts/${a.artifactId}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ artifact: a });
  });

  it('downloads byte-identical content with its type and name', async () => {
    const bytes = randomBytes(300_000);
    const a = await uploadOk({ file: { name: 'dump.bin', type: 'application/octet-stream', bytes } });
    expect(a).toMatchObject({ title: 'dump.bin', fileType: 'bin', sizeBytes: '300000', sha256: sha256(bytes) });
    const res = await download(a.artifactId);
    expect(res.status).toBe(200);
    expect(Buffer.from(res.bytes).equals(bytes)).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-length')).toBe('300000');
    expect(res.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''dump.bin");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each([
    ['report.PDF', 'application/pdf', 'pdf'],
    ['archive.tar.gz', 'application/gzip', 'gz'],
    ['photo.JPG', 'image/jpeg', 'image'],
    ['screenshot', 'image/png', 'image'],
    ['diagram.svg', 'application/octet-stream', 'image'],
    ['notes', 'text/plain', 'plain'],
    ['README', 'application/octet-stream', 'file'],
    ['README', undefined, 'file'],
    ['log.', 'text/x-log', 'x-log'],
  ])('derives file_type of %j (%s) as %s', async (name, type, fileType) => {
    const a = await uploadOk({ file: { name, type, bytes: 'x' } });
    expect(a.fileType).toBe(fileType);
  });

  it('takes created_via and enum names without their prefix', async () => {
    const a = await uploadOk({
      file: { name: 'chat.txt', type: 'text/plain', bytes: 'hi' },
      created_via: 'CONVERSATION',
      links: [
        { relation: 'REFERENCES', entity_type: 'RUN', entity_id: f.runId },
        { relation: 2, entityType: 'ARTIFACT_ENTITY_TYPE_ASSET', entityId: f.assetId },
      ],
    });
    expect(a.createdVia).toBe('ARTIFACT_CREATED_VIA_CONVERSATION');
    expect(a.links.map((l: any) => [l.relation, l.entityType, l.entityId])).toEqual([
      ['ARTIFACT_LINK_RELATION_REFERENCES', 'ARTIFACT_ENTITY_TYPE_RUN', f.runId],
      ['ARTIFACT_LINK_RELATION_GENERATED_FROM', 'ARTIFACT_ENTITY_TYPE_ASSET', f.assetId],
    ]);
  });

  it('rejects bad requests naming the field, and leaves nothing behind', async () => {
    const before = countRows('artifacts');
    expectViolation(await upload({ title: 'no file' }), 'file');
    expectViolation(await upload({ file: { name: 'a.txt', bytes: 'x' }, metadata: '{not json' }), 'metadata');
    expectViolation(await upload({ file: { name: 'a.txt', bytes: 'x' }, links: '[{"relation": "ATTACHED_TO"}]' }), 'links[0].entity_type');
    expectViolation(
      await upload({
        file: { name: 'a.txt', bytes: 'x' },
        links: [{ relation: 'ARTIFACT_LINK_RELATION_UNSPECIFIED', entityType: 'RUN', entityId: f.runId }],
      }),
      'links[0].relation',
    );
    expectViolation(
      await upload({ file: { name: 'a.txt', bytes: 'x' }, links: [{ relation: 'ATTACHED_TO', entityType: 'NOTEBOOK', entityId: 'x' }] }),
      'links[0].entity_type',
    );
    expectViolation(
      await upload({
        file: { name: 'a.txt', bytes: 'x' },
        metadata: [
          { key: { name: 'k' }, stringValue: 'a' },
          { key: { name: 'k' }, stringValue: 'b' },
        ],
      }),
      'metadata',
    );
    // a linked annotation that does not exist
    expectNotFound(
      await upload({
        file: { name: 'a.txt', bytes: 'x' },
        links: [{ relation: 'ATTACHED_TO', entityType: 'ANNOTATION', entityId: 'ghost-annotation' }],
      }),
      /annotation not found: ghost-annotation/,
    );
    // not multipart at all
    expectViolation(await s.api('POST', '/api/v1/artifacts:upload', { title: 'json' }), 'body');
    expect(countRows('artifacts')).toBe(before);
    expect(tmpFiles()).toEqual([]);
  });

  it('enforces the artifact size limit (OUTPOST_MAX_ARTIFACT_BYTES)', async () => {
    const saved = process.env.OUTPOST_MAX_ARTIFACT_BYTES;
    process.env.OUTPOST_MAX_ARTIFACT_BYTES = '1024';
    try {
      const before = countRows('artifacts');
      const tooBig = await upload({ file: { name: 'big.bin', bytes: randomBytes(1025) } });
      expectViolation(tooBig, 'file');
      // Refused by the router while the upload streamed in (the service would say "is 1025 bytes; ... limit is").
      expect(tooBig.body.message).toMatch(/larger than the artifact size limit of 1024 bytes/);
      expect(countRows('artifacts')).toBe(before);
      expect(tmpFiles()).toEqual([]);
      const atLimit = await upload({ file: { name: 'ok.bin', bytes: randomBytes(1024) } });
      expect(atLimit.status).toBe(200);
      expectViolation(await s.api('POST', '/api/v1/artifacts', { title: 'big', content: { blob: 'x'.repeat(2000) } }), 'content');
      const a = await uploadOk({ file: { name: 'v1.bin', bytes: 'small' } });
      expectViolation(
        await multipart(`/api/v1/artifacts/${a.artifactId}/versions`, { file: { name: 'v2.bin', bytes: randomBytes(4096) } }),
        'file',
      );
      expect((await s.api('GET', `/api/v1/artifacts/${a.artifactId}`)).body.artifact.version).toBe(1);
    } finally {
      if (saved === undefined) delete process.env.OUTPOST_MAX_ARTIFACT_BYTES;
      else process.env.OUTPOST_MAX_ARTIFACT_BYTES = saved;
    }
  });

  it('never reads a file the router did not upload (requests passed through IPC)', async () => {
    const caller = loadCaller(s.engine.db, f.userId)!;
    const forged = { file: { path: '/etc/passwd', fileName: 'passwd', mimeType: 'text/plain', encoding: '', size: 10 } };
    await expect(invoke({ engine: s.engine, db: s.engine.db, caller }, 'UploadArtifact', forged)).rejects.toMatchObject({
      code: 3,
      message: /file: is not an uploaded file/,
    });
  });
});

describe('CreateStructuredArtifact', () => {
  it('stores a JSON document as a STRUCTURED artifact with file_type json', async () => {
    const content = { summary: 'overpressure at T+12s', points: [1, 2.5, null, true], nested: { a: 'b' } };
    const a = await structured({
      title: 'Analysis',
      content,
      metadata: [{ key: { name: 'model' }, stringValue: 'v2' }],
      links: [{ relation: 'GENERATED_FROM', entityType: 'CONVERSATION', entityId: 'conv-structured' }],
    });
    expect(Object.keys(a).sort()).toEqual(ARTIFACT_KEYS);
    const text = JSON.stringify(content);
    expect(a).toMatchObject({
      title: 'Analysis',
      fileName: '',
      fileType: 'json',
      storageClass: 'ARTIFACT_STORAGE_CLASS_STRUCTURED',
      createdVia: 'ARTIFACT_CREATED_VIA_API',
      version: 1,
      mimeType: 'application/json',
      sizeBytes: String(Buffer.byteLength(text)),
      sha256: sha256(Buffer.from(text)),
      links: [
        {
          relation: 'ARTIFACT_LINK_RELATION_GENERATED_FROM',
          entityType: 'ARTIFACT_ENTITY_TYPE_CONVERSATION',
          entityId: 'conv-structured',
          artifactVersionId: a.artifactVersionId,
        },
      ],
    });
    const res = await download(a.artifactId);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(Buffer.from(res.bytes).toString('utf8'))).toEqual(content);

    const named = await structured({
      title: 'named',
      content: [1, 2],
      fileName: 'result.txt',
      createdVia: 'ARTIFACT_CREATED_VIA_CONVERSATION',
    });
    expect(named).toMatchObject({ fileName: 'result.txt', fileType: 'json', createdVia: 'ARTIFACT_CREATED_VIA_CONVERSATION' });
    expectViolation(await s.api('POST', '/api/v1/artifacts', { title: 'no content' }), 'content');
    expectViolation(await s.api('POST', '/api/v1/artifacts', { content: {} }), 'title');
  });
});

describe('artifact versions', () => {
  it('a new version bumps version, artifactVersionId and versionCreatedDate; old content stays downloadable', async () => {
    const v1Bytes = randomBytes(1000);
    const v2Bytes = randomBytes(2000);
    const a1 = await uploadOk({
      file: { name: 'trace.csv', type: 'text/csv', bytes: v1Bytes },
      links: [{ relation: 'ATTACHED_TO', entityType: 'ANNOTATION', entityId: annotationId }],
    });
    const res = await multipart(`/api/v1/artifacts/${a1.artifactId}/versions`, {
      file: { name: 'trace.parquet', type: 'application/vnd.apache.parquet', bytes: v2Bytes },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const a2 = res.body.artifact;
    expect(a2).toMatchObject({
      artifactId: a1.artifactId,
      title: a1.title,
      version: 2,
      fileName: 'trace.parquet',
      fileType: 'parquet',
      mimeType: 'application/vnd.apache.parquet',
      sizeBytes: '2000',
      sha256: sha256(v2Bytes),
      createdDate: a1.createdDate,
    });
    expect(a2.artifactVersionId).not.toBe(a1.artifactVersionId);
    expect(parseTimestamp(a2.versionCreatedDate)!).toBeGreaterThan(parseTimestamp(a1.versionCreatedDate)!); // by instant, not text (.123Z sorts after .123456Z)
    expect(a2.modifiedDate).toBe(a2.versionCreatedDate);
    // the existing link keeps pointing at the version it was made for
    expect(a2.links[0].artifactVersionId).toBe(a1.artifactVersionId);

    const list = await s.api('GET', `/api/v1/artifacts/${a1.artifactId}/versions`);
    expect(list.status).toBe(200);
    expect(list.body.nextPageToken).toBe('');
    expect(list.body.artifactVersions).toEqual([
      {
        artifactVersionId: a2.artifactVersionId,
        artifactId: a1.artifactId,
        version: 2,
        fileName: 'trace.parquet',
        fileType: 'parquet',
        mimeType: 'application/vnd.apache.parquet',
        sizeBytes: '2000',
        sha256: sha256(v2Bytes),
        createdDate: a2.versionCreatedDate,
        createdByUserId: f.userId,
      },
      {
        artifactVersionId: a1.artifactVersionId,
        artifactId: a1.artifactId,
        version: 1,
        fileName: 'trace.csv',
        fileType: 'csv',
        mimeType: 'text/csv',
        sizeBytes: '1000',
        sha256: sha256(v1Bytes),
        createdDate: a1.createdDate,
        createdByUserId: f.userId,
      },
    ]);
    const paged = await s.api('GET', `/api/v1/artifacts/${a1.artifactId}/versions?page_size=1`);
    expect(paged.body.artifactVersions.map((v: any) => v.version)).toEqual([2]);
    const rest = await s.api('GET', `/api/v1/artifacts/${a1.artifactId}/versions?page_size=1&page_token=${paged.body.nextPageToken}`);
    expect(rest.body.artifactVersions.map((v: any) => v.version)).toEqual([1]);

    expect(Buffer.from((await download(a1.artifactId)).bytes).equals(v2Bytes)).toBe(true);
    expect(Buffer.from((await download(a1.artifactId, '?version=1')).bytes).equals(v1Bytes)).toBe(true);
    expect(Buffer.from((await download(a1.artifactId, '?version=2')).bytes).equals(v2Bytes)).toBe(true);
    const missing = await download(a1.artifactId, '?version=9');
    expect(missing.status).toBe(404);

    // a link may name a specific version of the artifact, and only one of its own
    const linked = await s.api('POST', `/api/v1/artifacts/${a1.artifactId}:link`, {
      relation: 'REFERENCES',
      entityType: 'RUN',
      entityId: f.runId,
      artifactVersionId: a1.artifactVersionId,
    });
    expect(linked.body.artifact.links[1]).toEqual({
      relation: 'ARTIFACT_LINK_RELATION_REFERENCES',
      entityType: 'ARTIFACT_ENTITY_TYPE_RUN',
      entityId: f.runId,
      artifactVersionId: a1.artifactVersionId,
    });
    const other = await uploadOk({ file: { name: 'o.txt', bytes: 'o' } });
    expectViolation(
      await s.api('POST', `/api/v1/artifacts/${a1.artifactId}:link`, {
        relation: 'REFERENCES',
        entityType: 'RUN',
        entityId: f.runId,
        artifactVersionId: other.artifactVersionId,
      }),
      'artifact_version_id',
    );
  });

  it('a new version of a structured artifact must be JSON, and stays json', async () => {
    const a = await structured({ title: 's', content: { v: 1 } });
    expectViolation(
      await multipart(`/api/v1/artifacts/${a.artifactId}/versions`, { file: { name: 'x.txt', type: 'text/plain', bytes: 'not json' } }),
      'file',
    );
    const res = await multipart(`/api/v1/artifacts/${a.artifactId}/versions`, {
      file: { name: 'v2.json', type: 'text/plain', bytes: '{"v":2}' },
    });
    expect(res.status).toBe(200);
    expect(res.body.artifact).toMatchObject({
      version: 2,
      fileType: 'json',
      mimeType: 'application/json',
      storageClass: 'ARTIFACT_STORAGE_CLASS_STRUCTURED',
    });
    expectViolation(await multipart(`/api/v1/artifacts/${a.artifactId}/versions`, {}), 'file');
    expectNotFound(await multipart('/api/v1/artifacts/ghost/versions', { file: { name: 'x', bytes: 'x' } }), /artifact not found: ghost/);
    expect(tmpFiles()).toEqual([]);
  });
});

describe('links', () => {
  it('links to an entity idempotently, checks that it exists and is visible, and unlinks', async () => {
    const a = await uploadOk({ file: { name: 'l.txt', bytes: 'l' } });
    const link = { relation: 'ARTIFACT_LINK_RELATION_ATTACHED_TO', entityType: 'ARTIFACT_ENTITY_TYPE_ANNOTATION', entityId: annotationId };
    const first = await s.api('POST', `/api/v1/artifacts/${a.artifactId}:link`, link);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.artifact.links).toEqual([{ ...link, artifactVersionId: a.artifactVersionId }]);
    expect(parseTimestamp(first.body.artifact.modifiedDate)!).toBeGreaterThan(parseTimestamp(a.modifiedDate)!); // by instant, not text (.123Z sorts after .123456Z)
    const again = await s.api('POST', `/api/v1/artifacts/${a.artifactId}:link`, {
      relation: 'ATTACHED_TO',
      entity_type: 'ANNOTATION',
      entity_id: annotationId,
    });
    expect(again.body.artifact.links).toHaveLength(1);
    expect(again.body.artifact.modifiedDate).toBe(first.body.artifact.modifiedDate);

    // test reports are checked like the others; conversations are not a local resource
    expectNotFound(
      await s.api('POST', `/api/v1/artifacts/${a.artifactId}:link`, {
        relation: 'REFERENCES',
        entityType: 'TEST_REPORT',
        entityId: 'no-report',
      }),
      /test report not found/,
    );
    expectNotFound(
      await s.api('POST', `/api/v1/artifacts/${a.artifactId}:link`, { relation: 'REFERENCES', entityType: 'ASSET', entityId: 'no-asset' }),
      /asset not found/,
    );
    expect(
      (
        await s.api('POST', `/api/v1/artifacts/${a.artifactId}:link`, {
          relation: 'REFERENCES',
          entityType: 'CONVERSATION',
          entityId: 'conv-x',
        })
      ).status,
    ).toBe(200);

    expectNotFound(
      await s.api('POST', `/api/v1/artifacts/${a.artifactId}:link`, { ...link, entityId: 'ghost' }),
      /annotation not found: ghost/,
    );
    expectViolation(
      await s.api('POST', `/api/v1/artifacts/${a.artifactId}:link`, { ...link, relation: 'ARTIFACT_LINK_RELATION_UNSPECIFIED' }),
      'relation',
    );
    expectViolation(await s.api('POST', `/api/v1/artifacts/${a.artifactId}:link`, { ...link, entityType: 0 }), 'entity_type');
    expectViolation(
      await s.api('POST', `/api/v1/artifacts/${a.artifactId}:link`, { relation: 'ATTACHED_TO', entityType: 'ANNOTATION' }),
      'entity_id',
    );
    expectNotFound(await s.api('POST', '/api/v1/artifacts/ghost:link', link), /artifact not found: ghost/);

    // an annotation of another organization is not visible: NOT_FOUND, as if it did not exist
    const otherOrg = s.engine.db.get<{ id: string }>("SELECT id FROM organizations WHERE name = 'Other Org'")!.id;
    const otherUser = s.engine.db.get<{ id: string }>("SELECT id FROM users WHERE user_name = 'x@y'")!.id;
    s.engine.db.run(
      'INSERT INTO assets(id, organization_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id) VALUES (?, ?, ?, 0, ?, 0, ?)',
      ['their-asset', otherOrg, 'Their asset', otherUser, otherUser],
    );
    const theirAnnotation = await s.api(
      'POST',
      '/api/v1/annotations',
      { name: 'theirs', startTime: '2026-09-01T10:00:00Z', endTime: '2026-09-01T10:00:01Z', assets: ['Their asset'] },
      otherToken,
    );
    expect(theirAnnotation.status, JSON.stringify(theirAnnotation.body)).toBe(200);
    expectNotFound(
      await s.api('POST', `/api/v1/artifacts/${a.artifactId}:link`, { ...link, entityId: theirAnnotation.body.annotation.annotationId }),
      /annotation not found/,
    );

    const unlinked = await s.api('POST', `/api/v1/artifacts/${a.artifactId}:unlink`, link);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.artifact.links.map((l: any) => l.entityType)).toEqual(['ARTIFACT_ENTITY_TYPE_CONVERSATION']);
    expectNotFound(await s.api('POST', `/api/v1/artifacts/${a.artifactId}:unlink`, link), /artifact link not found/);
  });
});

describe('archive / unarchive', () => {
  it('returns the artifact with its archived state and is idempotent', async () => {
    const a = await uploadOk({ file: { name: 'ar.txt', bytes: 'a' } });
    const res = await s.api('POST', `/api/v1/artifacts/${a.artifactId}:archive`, {});
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['artifact']);
    expect(res.body.artifact).toMatchObject({ isArchived: true, archivedDate: expect.stringMatching(RFC3339) });
    const again = await s.api('POST', `/api/v1/artifacts/${a.artifactId}:archive`);
    expect(again.body.artifact.archivedDate).toBe(res.body.artifact.archivedDate);
    // archived content is still readable
    expect((await download(a.artifactId)).status).toBe(200);
    const back = await s.api('POST', `/api/v1/artifacts/${a.artifactId}:unarchive`);
    expect(back.body.artifact).toMatchObject({ isArchived: false, archivedDate: null });
    expectNotFound(await s.api('POST', '/api/v1/artifacts/ghost:archive'));
  });
});

describe('ListArtifacts', () => {
  let l: TestServer;
  let ids: string[];
  let titles: string[];
  const listAll = async (query: string, pageSize = 7, server = () => l) => {
    const out: any[] = [];
    let token = '';
    do {
      const res = await server().api(
        'GET',
        `/api/v1/artifacts?page_size=${pageSize}${query}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['artifacts', 'nextPageToken']);
      out.push(...res.body.artifacts);
      token = res.body.nextPageToken;
    } while (token);
    return out;
  };

  beforeAll(async () => {
    l = await startTestServer();
    ids = [];
    titles = [];
    for (let i = 0; i < 60; i++) {
      const title = `t${String((i * 37) % 60).padStart(2, '0')}`;
      const links =
        i % 3 === 0
          ? [{ relation: 'ATTACHED_TO', entityType: 'CONVERSATION', entityId: 'conv-a' }]
          : i % 3 === 1
            ? [{ relation: 'REFERENCES', entityType: 'CONVERSATION', entityId: 'conv-b' }]
            : [];
      const res = await l.api('POST', '/api/v1/artifacts', { title, content: { i }, links });
      expect(res.status).toBe(200);
      ids.push(res.body.artifact.artifactId);
      titles.push(title);
    }
  });
  afterAll(async () => l.close());

  it('orders by created_date ascending by default; " desc" reverses; pages 50 by default', async () => {
    const first = await l.api('GET', '/api/v1/artifacts');
    expect(first.body.artifacts).toHaveLength(50);
    expect(first.body.artifacts.map((a: any) => a.artifactId)).toEqual(ids.slice(0, 50));
    expect(first.body.nextPageToken).not.toBe('');
    expect((await listAll('')).map((a) => a.artifactId)).toEqual(ids);
    expect((await listAll(`&order_by=${encodeURIComponent('created_date desc')}`)).map((a) => a.artifactId)).toEqual([...ids].reverse());
    const big = await l.api('GET', '/api/v1/artifacts?page_size=5000');
    expect(big.body.artifacts).toHaveLength(60); // coerced to the maximum (1000), not rejected
    expect(big.body.nextPageToken).toBe('');
  });

  it.each(['title', 'title desc', 'version', 'file_type', 'version_created_date desc', 'archived_date', 'createdDate'])(
    'orders by %j',
    async (orderBy) => {
      const rows = await listAll(`&order_by=${encodeURIComponent(orderBy)}`, 11);
      expect(new Set(rows.map((r) => r.artifactId)).size).toBe(60);
      if (orderBy.startsWith('title')) {
        const sorted = [...titles].sort();
        expect(rows.map((r) => r.title)).toEqual(orderBy.endsWith('desc') ? sorted.reverse() : sorted);
      }
    },
  );

  it('rejects unknown order fields and replayed page tokens', async () => {
    expectViolation(await l.api('GET', '/api/v1/artifacts?order_by=size_bytes'), 'order_by');
    const page = await l.api('GET', '/api/v1/artifacts?page_size=5&conversationId=conv-a');
    expectViolation(
      await l.api('GET', `/api/v1/artifacts?page_size=5&conversationId=conv-b&page_token=${encodeURIComponent(page.body.nextPageToken)}`),
      'page_token',
    );
  });

  it('scopes to a conversation with conversationId (a CONVERSATION link to it)', async () => {
    const convA = await listAll('&conversationId=conv-a', 4);
    expect(convA.map((a) => a.artifactId)).toEqual(ids.filter((_, i) => i % 3 === 0));
    const convB = await listAll('&conversation_id=conv-b');
    expect(convB.map((a) => a.artifactId)).toEqual(ids.filter((_, i) => i % 3 === 1));
    expect(await listAll('&conversationId=nobody')).toEqual([]);
    // a non-conversation link with the same entity id does not count
    const run = createFixtures(l).runId;
    const res = await l.api('POST', '/api/v1/artifacts', {
      title: 'run link',
      content: {},
      links: [{ relation: 'ATTACHED_TO', entityType: 'RUN', entityId: run }],
    });
    expect(await listAll(`&conversationId=${run}`)).toEqual([]);
    await l.api('POST', `/api/v1/artifacts/${res.body.artifact.artifactId}:archive`);
  });

  it('leaves archived artifacts out (also within a conversation) until they are unarchived', async () => {
    const archivedIds = [ids[0], ids[4], ids[9]];
    for (const id of archivedIds) expect((await l.api('POST', `/api/v1/artifacts/${id}:archive`)).status).toBe(200);
    try {
      const all = await listAll('');
      expect(all.map((a) => a.artifactId)).toEqual(ids.filter((id) => !archivedIds.includes(id)));
      const convA = await listAll('&conversationId=conv-a');
      expect(convA.map((a) => a.artifactId)).toEqual(ids.filter((id, i) => i % 3 === 0 && !archivedIds.includes(id)));
    } finally {
      for (const id of archivedIds) await l.api('POST', `/api/v1/artifacts/${id}:unarchive`);
    }
    expect((await listAll('')).map((a) => a.artifactId)).toEqual(ids);
  });
});

describe('organization isolation', () => {
  it("another organization's artifacts are NOT_FOUND everywhere and never listed", async () => {
    const a = await uploadOk({
      file: { name: 'secret.txt', bytes: 'secret' },
      links: [{ relation: 'ATTACHED_TO', entityType: 'CONVERSATION', entityId: 'conv-iso' }],
    });
    const other = (method: string, path: string, body?: unknown) => s.api(method, path, body, otherToken);
    expectNotFound(await other('GET', `/api/v1/artifacts/${a.artifactId}`), /artifact not found/);
    expect((await download(a.artifactId, '', otherToken)).status).toBe(404);
    expectNotFound(await other('GET', `/api/v1/artifacts/${a.artifactId}/versions`));
    expectNotFound(await multipart(`/api/v1/artifacts/${a.artifactId}/versions`, { file: { name: 'x', bytes: 'x' } }, otherToken));
    expectNotFound(
      await other('POST', `/api/v1/artifacts/${a.artifactId}:link`, { relation: 'ATTACHED_TO', entityType: 'CONVERSATION', entityId: 'c' }),
    );
    expectNotFound(
      await other('POST', `/api/v1/artifacts/${a.artifactId}:unlink`, {
        relation: 'ATTACHED_TO',
        entityType: 'CONVERSATION',
        entityId: 'conv-iso',
      }),
    );
    expectNotFound(await other('POST', `/api/v1/artifacts/${a.artifactId}:archive`));
    expectNotFound(await other('POST', `/api/v1/artifacts/${a.artifactId}:unarchive`));
    const theirs = await other('GET', '/api/v1/artifacts?page_size=1000');
    expect(theirs.status).toBe(200);
    expect(theirs.body.artifacts.map((x: any) => x.artifactId)).not.toContain(a.artifactId);
    expect((await other('GET', '/api/v1/artifacts?conversationId=conv-iso')).body.artifacts).toEqual([]);
    // their own uploads land in their organization
    const mine = await upload({ file: { name: 'theirs.txt', bytes: 't' } }, otherToken);
    expect(mine.status).toBe(200);
    expect(mine.body.artifact.organizationId).not.toBe(f.organizationId);
    expectNotFound(await s.api('GET', `/api/v1/artifacts/${mine.body.artifact.artifactId}`));
    expect((await s.api('GET', `/api/v1/artifacts?organization_id=${mine.body.artifact.organizationId}`)).status).toBe(404);
  });
});
