// RemoteFileService over real HTTP: the multipart upload the platform clients
// use (reference §10.3), the companions (§10.2), signed download URLs with a
// byte-identical round trip, hard delete of row and content, organization
// isolation, uint64 as a JSON string, keyset paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { signedContentPath } from '../../src-main/services/remoteFiles/contentStore';
import { startTestServer, type TestServer } from '../support/testServer';
import { expectViolation as expectInvalid, unarchivedMetadata } from '../support/assertions';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s.close());

interface UploadOptions {
  entityId?: string | null;
  entityType?: string | null;
  bytes?: Uint8Array | string;
  fileName?: string;
  mimeType?: string;
  metadata?: string;
  description?: string;
  organizationId?: string;
  withFile?: boolean;
  token?: string | null;
}

/** POST /api/v0/remote-files/upload as requests-toolbelt would: multipart form with a `file` part. */
async function upload(o: UploadOptions = {}) {
  const form = new FormData();
  if (o.entityId !== null) form.append('entityId', o.entityId ?? randomUUID());
  if (o.entityType !== null) form.append('entityType', o.entityType ?? 'runs');
  if (o.metadata !== undefined) form.append('metadata', o.metadata);
  if (o.description !== undefined) form.append('description', o.description);
  if (o.organizationId !== undefined) form.append('organizationId', o.organizationId);
  if (o.withFile !== false) {
    const bytes = o.bytes ?? 'hello outpost';
    form.append('file', new Blob([bytes as BlobPart], { type: o.mimeType ?? 'application/octet-stream' }), o.fileName ?? 'hello.bin');
  }
  const headers: Record<string, string> = {};
  const token = o.token === undefined ? s.token : o.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${s.url}/api/v0/remote-files/upload`, { method: 'POST', headers, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function uploadOk(o: UploadOptions = {}) {
  const res = await upload(o);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.remoteFile as Record<string, any>;
}

const tmpUploads = () => {
  const dir = join(s.dataDir, 'tmp');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith('upload-')) : [];
};

const REMOTE_FILE_KEYS = [
  'remoteFileId',
  'organizationId',
  'entityId',
  'entityType',
  'fileName',
  'fileMimeType',
  'fileContentEncoding',
  'storageKey',
  'fileSize',
  'createdByUserId',
  'modifiedByUserId',
  'createdDate',
  'modifiedDate',
  'metadataValues',
  'remoteFileType',
];

describe('UploadRemoteFile (POST /api/v0/remote-files/upload)', () => {
  it('stores an image with its metadata and returns the full RemoteFile (fileSize as a string)', async () => {
    const entityId = randomUUID();
    const bytes = randomBytes(1234);
    const f = await uploadOk({
      entityId,
      entityType: 'runs',
      bytes,
      fileName: 'frame.png',
      mimeType: 'image/png',
      metadata: '{"height": 480, "width": 640}',
      description: 'first frame',
    });
    expect(Object.keys(f).sort()).toEqual([...REMOTE_FILE_KEYS, 'description', 'imageMetadata'].sort());
    const org = s.engine.db.get<{ organization_id: string }>('SELECT organization_id FROM remote_files WHERE id = ?', [
      f.remoteFileId,
    ])!.organization_id;
    expect(f).toMatchObject({
      organizationId: org,
      entityId,
      entityType: 'ENTITY_TYPE_RUN',
      fileName: 'frame.png',
      fileMimeType: 'image/png',
      fileContentEncoding: '',
      storageKey: `${org}/${f.remoteFileId}/frame.png`,
      fileSize: '1234',
      description: 'first frame',
      imageMetadata: { height: 480, width: 640 },
      metadataValues: [],
      remoteFileType: 'REMOTE_FILE_TYPE_IMAGE',
    });
    expect(f.createdByUserId).toBe(f.modifiedByUserId);
    expect(f.createdDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(tmpUploads()).toEqual([]);
  });

  it('maps the plural entity types and derives remote_file_type', async () => {
    const cases: [string, string, string, string, string][] = [
      ['test_reports', 'report.xml', 'application/xml', 'ENTITY_TYPE_TEST_REPORT', 'REMOTE_FILE_TYPE_TEST_REPORT'],
      ['test_steps', 'notes.xml', 'text/xml', 'ENTITY_TYPE_TEST_STEP', 'REMOTE_FILE_TYPE_TEST_REPORT'],
      ['assets', 'clip.mp4', 'video/mp4', 'ENTITY_TYPE_ASSET', 'REMOTE_FILE_TYPE_VIDEO'],
      ['annotations', 'voice.wav', 'audio/wav', 'ENTITY_TYPE_ANNOTATION', 'REMOTE_FILE_TYPE_AUDIO'],
      ['annotation_logs', 'data.csv', 'text/csv', 'ENTITY_TYPE_ANNOTATION_LOG', 'REMOTE_FILE_TYPE_UNSPECIFIED'],
      ['ENTITY_TYPE_RUN', 'x.parquet', 'application/vnd.apache.parquet', 'ENTITY_TYPE_RUN', 'REMOTE_FILE_TYPE_UNSPECIFIED'],
    ];
    for (const [entityType, fileName, mimeType, wantEntity, wantType] of cases) {
      const f = await uploadOk({ entityType, fileName, mimeType });
      expect([f.entityType, f.remoteFileType]).toEqual([wantEntity, wantType]);
      expect('description' in f).toBe(false); // proto3 optional: omitted when unset
    }
  });

  it('reads video and audio metadata (snake_case JSON) into the matching oneof member', async () => {
    const v = await uploadOk({
      fileName: 'clip.mp4',
      mimeType: 'video/mp4',
      metadata: '{"height": 1080, "width": 1920, "duration_seconds": 12.5, "timestamp": "2025-09-10T11:25:07.560Z"}',
    });
    expect(v.videoMetadata).toEqual({ height: 1080, width: 1920, durationSeconds: 12.5, timestamp: '2025-09-10T11:25:07.560Z' });
    expect('imageMetadata' in v || 'audioMetadata' in v).toBe(false);
    const a = await uploadOk({ fileName: 'voice.wav', mimeType: 'audio/wav', metadata: '{"duration_seconds": 3, "timestamp": null}' });
    expect(a.audioMetadata).toEqual({ durationSeconds: 3, timestamp: null });
  });

  it('rejects bad form fields naming the field, and leaves no temp file behind', async () => {
    expectInvalid(await upload({ withFile: false }), 'file');
    expectInvalid(await upload({ entityId: null }), 'entity_id');
    expectInvalid(await upload({ entityType: null }), 'entity_type');
    expectInvalid(await upload({ entityType: 'widgets' }), 'entity_type');
    expectInvalid(await upload({ metadata: '{not json' }), 'metadata');
    expectInvalid(await upload({ mimeType: 'image/png', metadata: '{"height": -1}' }), 'metadata');
    expect(tmpUploads()).toEqual([]);
    const json = await s.api('POST', '/api/v0/remote-files/upload', { entityId: 'x' });
    expectInvalid(json, 'body');
    const anonymous = await upload({ token: null });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 16]);
  });
});

describe('a gzip file as sift_py sends it', () => {
  /**
   * The body requests-toolbelt's MultipartEncoder writes for sift_py's UploadService.upload_attachment (fields in its
   * order, a uuid4().hex boundary, urllib3's part headers: Content-Disposition, Content-Type, then the
   * `{"Content-Encoding": "gzip"}` that mimetypes.guess_type("....csv.gz") gives).
   */
  function siftPyBody(boundary: string, entityId: string, gz: Buffer): Buffer {
    const text = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    return Buffer.concat([
      Buffer.from(text('entityId', entityId) + text('entityType', 'ENTITY_TYPE_RUN')),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="pressure.csv.gz"\r\n` +
          'Content-Type: text/csv\r\nContent-Encoding: gzip\r\n\r\n',
      ),
      gz,
      Buffer.from(`\r\n${text('description', 'bench log')}--${boundary}--\r\n`),
    ]);
  }

  it('keeps the file part’s Content-Encoding (fileContentEncoding "gzip") and the bytes as sent', async () => {
    const gz = gzipSync(Buffer.from('t,p\n0,1.5\n1,1.6\n'.repeat(2000)));
    const boundary = randomUUID().replaceAll('-', '');
    const entityId = randomUUID();
    const body = siftPyBody(boundary, entityId, gz);
    // Whole, and cut into 7-byte chunks (part headers split across chunks, as a slow connection delivers them).
    for (const chunked of [false, true]) {
      const res = await fetch(`${s.url}/api/v0/remote-files/upload`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body: chunked
          ? new ReadableStream({
              start(c) {
                for (let i = 0; i < body.length; i += 7) c.enqueue(body.subarray(i, i + 7));
                c.close();
              },
            })
          : body,
        ...(chunked ? { duplex: 'half' } : {}),
      } as RequestInit);
      const json = (await res.json()) as { remoteFile: Record<string, any> };
      expect(res.status, JSON.stringify(json)).toBe(200);
      expect(json.remoteFile).toMatchObject({
        fileName: 'pressure.csv.gz',
        fileMimeType: 'text/csv',
        fileContentEncoding: 'gzip',
        fileSize: String(gz.length),
        entityId,
        description: 'bench log',
      });
      const got = await s.api('GET', `/api/v1/remote-files/${json.remoteFile.remoteFileId}`);
      expect(got.body.remoteFile.fileContentEncoding).toBe('gzip');
      const url = (await s.api('GET', `/api/v1/remote-files/${json.remoteFile.remoteFileId}/download-url`)).body.downloadUrl;
      const raw = await new Promise<Buffer>((resolve, reject) =>
        httpGet(url, (r) => {
          const parts: Buffer[] = [];
          r.on('data', (c: Buffer) => parts.push(c));
          r.on('end', () => resolve(Buffer.concat(parts)));
        }).on('error', reject),
      );
      expect(raw.equals(gz)).toBe(true);
    }
  });

  it('a file part without Content-Encoding stays ""', async () => {
    const f = await uploadOk({ bytes: 'plain', fileName: 'plain.txt', mimeType: 'text/plain' });
    expect(f.fileContentEncoding).toBe('');
  });
});

describe('download URL and content', () => {
  it('round-trips the bytes exactly through the signed URL (no API key needed)', async () => {
    const bytes = randomBytes(300_000);
    bytes[0] = 0x00;
    bytes[1] = 0xff;
    const f = await uploadOk({ bytes, fileName: 'blob one.bin', mimeType: 'application/octet-stream' });
    const res = await s.api('GET', `/api/v1/remote-files/${f.remoteFileId}/download-url`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['downloadUrl']);
    expect(res.body.downloadUrl.startsWith(`${s.url}/api/v1/remote-files/`)).toBe(true); // absolute, as HTTP clients need
    const url = new URL(res.body.downloadUrl);
    expect(url.pathname).toBe(`/api/v1/remote-files/${f.remoteFileId}/content`);
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(download.headers.get('content-length')).toBe('300000');
    expect(download.headers.get('content-disposition')).toContain("filename*=UTF-8''blob%20one.bin");
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('rejects tampered and expired URLs with PERMISSION_DENIED', async () => {
    const f = await uploadOk();
    const { body } = await s.api('GET', `/api/v1/remote-files/${f.remoteFileId}/download-url`);
    const tampered = new URL(body.downloadUrl, s.url);
    const sig = tampered.searchParams.get('signature')!;
    tampered.searchParams.set('signature', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    const bad = await s.api('GET', tampered.pathname + tampered.search, undefined, null);
    expect([bad.status, bad.body.code]).toEqual([403, 7]);
    const otherId = await uploadOk();
    const swapped = await s.api(
      'GET',
      `/api/v1/remote-files/${otherId.remoteFileId}/content${new URL(body.downloadUrl, s.url).search}`,
      undefined,
      null,
    );
    expect(swapped.status).toBe(403);
    const expired = signedContentPath(s.engine.pageTokenSecret, f.remoteFileId, Math.floor(Date.now() / 1000) - 10);
    const old = await s.api('GET', expired, undefined, null);
    expect([old.status, old.body.code]).toEqual([403, 7]);
    expect(old.body.message).toContain('expired');
    const unsigned = await s.api('GET', `/api/v1/remote-files/${f.remoteFileId}/content`, undefined, null);
    expect(unsigned.status).toBe(403);
  });

  it('has no download URL for a file recorded without content (FAILED_PRECONDITION)', async () => {
    const created = await s.api('POST', '/api/v1/remote-files', {
      fileName: 'later.bin',
      entityId: randomUUID(),
      entityType: 'ENTITY_TYPE_RUN',
      fileMimeType: 'application/octet-stream',
      fileSize: '10',
    });
    const res = await s.api('GET', `/api/v1/remote-files/${created.body.remoteFile.remoteFileId}/download-url`);
    expect([res.status, res.body.code]).toEqual([400, 9]);
    expect((await s.api('GET', '/api/v1/remote-files/nope/download-url')).status).toBe(404);
  });
});

describe('CreateRemoteFile / GetRemoteFile', () => {
  it('records a file without bytes; uint64 file_size accepted as string or number, emitted as a string', async () => {
    const entityId = randomUUID();
    const res = await s.api('POST', '/api/v1/remote-files', {
      file_name: 'big.mcap',
      entity_id: entityId,
      entity_type: 3,
      file_mime_type: 'application/x-mcap',
      file_content_encoding: 'gzip',
      file_size: '4294967296',
      description: '',
      image_metadata: { height: 1, width: 2 },
      metadata_values: [{ key: { name: 'site' }, string_value: 'pad 39A' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const f = res.body.remoteFile;
    expect(f).toMatchObject({
      entityId,
      entityType: 'ENTITY_TYPE_ASSET',
      fileName: 'big.mcap',
      fileContentEncoding: 'gzip',
      fileSize: '4294967296',
      description: '',
      imageMetadata: { height: 1, width: 2 },
      remoteFileType: 'REMOTE_FILE_TYPE_UNSPECIFIED',
      metadataValues: [{ key: { name: 'site', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'pad 39A' }],
    });
    const numeric = await s.api('POST', '/api/v1/remote-files', {
      fileName: 'n.bin',
      entityId,
      entityType: 'ENTITY_TYPE_RUN',
      fileMimeType: 'x/y',
      fileSize: 77,
    });
    expect(numeric.body.remoteFile.fileSize).toBe('77');
    const got = await s.api('GET', `/api/v1/remote-files/${f.remoteFileId}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ remoteFile: f });
  });

  it('validates the request', async () => {
    const base = { fileName: 'a.bin', entityId: 'e', entityType: 'ENTITY_TYPE_RUN', fileMimeType: 'x/y', fileSize: '1' };
    expectInvalid(await s.api('POST', '/api/v1/remote-files', { ...base, fileName: '' }), 'file_name');
    expectInvalid(await s.api('POST', '/api/v1/remote-files', { ...base, entityType: undefined }), 'entity_type');
    expectInvalid(await s.api('POST', '/api/v1/remote-files', { ...base, entityType: 'ENTITY_TYPE_UNSPECIFIED' }), 'entity_type');
    expectInvalid(await s.api('POST', '/api/v1/remote-files', { ...base, fileSize: 'lots' }), 'file_size');
    expectInvalid(await s.api('POST', '/api/v1/remote-files', { ...base, fileSize: -1 }), 'file_size');
    expectInvalid(await s.api('POST', '/api/v1/remote-files', { ...base, customUuid: 'not-a-uuid' }), 'custom_uuid');
    const both = await s.api('POST', '/api/v1/remote-files', { ...base, imageMetadata: { height: 1 }, videoMetadata: { height: 1 } });
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('oneof metadata');
  });

  it('is NOT_FOUND for an unknown id', async () => {
    const res = await s.api('GET', `/api/v1/remote-files/${randomUUID()}`);
    expect([res.status, res.body.code]).toEqual([404, 5]);
  });
});

describe('UpdateRemoteFile', () => {
  it('updates description, media metadata (the `metadata` oneof) and metadata values by mask', async () => {
    const f = await uploadOk({ fileName: 'img.png', mimeType: 'image/png', metadata: '{"height": 1, "width": 1}', description: 'old' });
    const d = await s.api('PATCH', '/api/v1/remote-files', {
      remoteFile: { remoteFileId: f.remoteFileId, description: 'new' },
      updateMask: 'description',
    });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(d.body.remoteFile.description).toBe('new');
    expect(d.body.remoteFile.imageMetadata).toEqual({ height: 1, width: 1 });
    expect(Date.parse(d.body.remoteFile.modifiedDate)).toBeGreaterThanOrEqual(Date.parse(f.modifiedDate));

    const m = await s.api('PATCH', '/api/v1/remote-files', {
      remoteFile: {
        remoteFileId: f.remoteFileId,
        videoMetadata: { height: 2, width: 3 },
        metadataValues: [{ key: { name: 'shot' }, numberValue: 4 }],
      },
      updateMask: 'metadata,metadataValues',
    });
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(m.body.remoteFile.videoMetadata).toEqual({ height: 2, width: 3, durationSeconds: 0, timestamp: null });
    expect('imageMetadata' in m.body.remoteFile).toBe(false);
    expect(m.body.remoteFile.metadataValues).toEqual(
      unarchivedMetadata({ key: { name: 'shot', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: 4 }),
    );
    expect(m.body.remoteFile.description).toBe('new');

    const cleared = await s.api('PATCH', '/api/v1/remote-files', {
      remoteFile: { remoteFileId: f.remoteFileId },
      updateMask: 'description,metadata',
    });
    expect('description' in cleared.body.remoteFile || 'videoMetadata' in cleared.body.remoteFile).toBe(false);
  });

  it('rejects masks naming other fields, a missing mask and unknown files', async () => {
    const f = await uploadOk();
    expectInvalid(
      await s.api('PATCH', '/api/v1/remote-files', { remoteFile: { remoteFileId: f.remoteFileId, fileName: 'x' }, updateMask: 'fileName' }),
      'update_mask',
    );
    expectInvalid(
      await s.api('PATCH', '/api/v1/remote-files', { remoteFile: { remoteFileId: f.remoteFileId }, updateMask: 'bogus' }),
      'update_mask',
    );
    expectInvalid(await s.api('PATCH', '/api/v1/remote-files', { remoteFile: { remoteFileId: f.remoteFileId } }), 'update_mask');
    const missing = await s.api('PATCH', '/api/v1/remote-files', { remoteFile: { remoteFileId: randomUUID() }, updateMask: 'description' });
    expect(missing.status).toBe(404);
  });
});

describe('DeleteRemoteFile / BatchDeleteRemoteFiles', () => {
  const contentOf = (id: string) => {
    const row = s.engine.db.get<{ content_path: string }>('SELECT content_path FROM remote_files WHERE id = ?', [id]);
    return row ? join(s.dataDir, 'files', row.content_path) : undefined;
  };

  it('hard-deletes the record and its content', async () => {
    const f = await uploadOk();
    const path = contentOf(f.remoteFileId)!;
    expect(existsSync(path)).toBe(true);
    const res = await s.api('DELETE', `/api/v1/remote-files/${f.remoteFileId}`);
    expect([res.status, res.body]).toEqual([200, {}]);
    expect(existsSync(path)).toBe(false);
    expect((await s.api('GET', `/api/v1/remote-files/${f.remoteFileId}`)).status).toBe(404);
    expect((await s.api('DELETE', `/api/v1/remote-files/${f.remoteFileId}`)).status).toBe(404);
  });

  it('deletes a batch atomically: one unknown id deletes nothing', async () => {
    const a = await uploadOk();
    const b = await uploadOk();
    const unknown = randomUUID();
    const fail = await s.api('POST', '/api/v1/remote-files:batchDelete', { remoteFileIds: [a.remoteFileId, unknown, b.remoteFileId] });
    expect([fail.status, fail.body.code]).toEqual([404, 5]);
    expect(fail.body.message).toContain(unknown);
    expect((await s.api('GET', `/api/v1/remote-files/${a.remoteFileId}`)).status).toBe(200);
    const ok = await s.api('POST', '/api/v1/remote-files:batchDelete', {
      remote_file_ids: [a.remoteFileId, b.remoteFileId, a.remoteFileId],
    });
    expect([ok.status, ok.body]).toEqual([200, {}]);
    expect((await s.api('GET', `/api/v1/remote-files/${b.remoteFileId}`)).status).toBe(404);
    expectInvalid(
      await s.api('POST', '/api/v1/remote-files:batchDelete', { remoteFileIds: Array.from({ length: 1001 }, () => randomUUID()) }),
      'remote_file_ids',
    );
  });
});

describe('ListRemoteFiles', () => {
  it('pages newest-first by default, orders by name, and keeps organizations apart', async () => {
    const token = s.newToken('lister@outpost.local', 'List Org');
    const names = ['c.bin', 'a.bin', 'e.bin', 'b.bin', 'd.bin'];
    const ids: string[] = [];
    for (const fileName of names) ids.push((await uploadOk({ fileName, token })).remoteFileId);

    const seen: string[] = [];
    let pageToken = '';
    let pages = 0;
    do {
      const res = await s.api(
        'GET',
        `/api/v1/remote-files?page_size=2${pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : ''}`,
        undefined,
        token,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.remoteFiles.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.remoteFiles.map((f: { remoteFileId: string }) => f.remoteFileId));
      pageToken = res.body.nextPageToken;
      pages++;
    } while (pageToken);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const byName = await s.api('GET', '/api/v1/remote-files?orderBy=name', undefined, token);
    expect(byName.body.remoteFiles.map((f: { fileName: string }) => f.fileName)).toEqual(['a.bin', 'b.bin', 'c.bin', 'd.bin', 'e.bin']);
    const byNameDesc = await s.api('GET', '/api/v1/remote-files?order_by=name%20desc&page_size=1', undefined, token);
    expect(byNameDesc.body.remoteFiles[0].fileName).toBe('e.bin');
    expect(byNameDesc.body.nextPageToken).not.toBe('');

    expectInvalid(await s.api('GET', '/api/v1/remote-files?order_by=file_size', undefined, token), 'order_by');
    // A page token is bound to the other parameters.
    expectInvalid(
      await s.api(
        'GET',
        `/api/v1/remote-files?order_by=name&page_token=${encodeURIComponent(byNameDesc.body.nextPageToken)}`,
        undefined,
        token,
      ),
      'page_token',
    );
  });
});

describe('organization isolation', () => {
  it("never shows another organization's files", async () => {
    const mine = await uploadOk();
    const theirs = s.newToken('outsider@outpost.local', 'Other Org');
    for (const [method, path, body] of [
      ['GET', `/api/v1/remote-files/${mine.remoteFileId}`, undefined],
      ['GET', `/api/v1/remote-files/${mine.remoteFileId}/download-url`, undefined],
      ['DELETE', `/api/v1/remote-files/${mine.remoteFileId}`, undefined],
      ['PATCH', '/api/v1/remote-files', { remoteFile: { remoteFileId: mine.remoteFileId, description: 'x' }, updateMask: 'description' }],
      ['POST', '/api/v1/remote-files:batchDelete', { remoteFileIds: [mine.remoteFileId] }],
    ] as const) {
      const res = await s.api(method, path, body, theirs);
      expect([res.status, res.body.code], `${method} ${path}`).toEqual([404, 5]);
    }
    const list = await s.api('GET', '/api/v1/remote-files?page_size=1000', undefined, theirs);
    expect(list.body.remoteFiles.map((f: { remoteFileId: string }) => f.remoteFileId)).not.toContain(mine.remoteFileId);
    const own = await uploadOk({ token: theirs });
    expect(own.organizationId).not.toBe(mine.organizationId);
    expect((await s.api('GET', `/api/v1/remote-files/${mine.remoteFileId}`)).status).toBe(200);
  });

  it('requires organizationId from a caller in several organizations', async () => {
    const multi = s.newToken('multi@outpost.local', 'Org A');
    s.newToken('multi@outpost.local', 'Org B');
    expectInvalid(await upload({ token: multi }), 'organization_id');
    const orgB = s.engine.db.get<{ id: string }>("SELECT id FROM organizations WHERE name = 'Org B'")!.id;
    const f = await uploadOk({ token: multi, organizationId: orgB });
    expect(f.organizationId).toBe(orgB);
    const foreign = await upload({ token: multi, organizationId: randomUUID() });
    expect(foreign.status).toBe(404);
    expect(tmpUploads()).toEqual([]);
  });
});
