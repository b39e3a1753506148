// The sync transport's multipart uploads and binary downloads against a real
// server over loopback: files are streamed from and to disk byte for byte, the
// form fields arrive as the API's multipart fields, errors keep their codes.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../src-shared/errors';
import { Remote } from '../../src-main/sync/remote';
import type { WireResponse } from '../../src-main/sync/wireTypes';
import { startTestServer, type TestServer } from '../support/testServer';

let server: TestServer;
let remote: Remote;

beforeAll(async () => {
  server = await startTestServer();
  remote = new Remote({ baseUrl: server.url, apiKey: server.token });
});
afterAll(async () => {
  remote.close();
  await server.close();
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('nodeHttpTransport multipart and binary', () => {
  it('uploads an artifact from disk with its text and JSON fields and downloads the same bytes to a file', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17); // several chunks; not a multiple of any buffer size
    const src = join(server.dataDir, 'upload-src.bin');
    writeFileSync(src, bytes);
    const res = (await remote.call('UploadArtifact', {
      file: { path: src, fileName: 'trace "A".bin', mimeType: 'application/octet-stream' },
      title: 'Trace A',
      metadata: [{ key: { name: 'station', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'S-7' }],
    })) as WireResponse<'UploadArtifact'>;
    const artifact = res.artifact;
    expect(artifact.title).toBe('Trace A');
    expect(JSON.stringify(artifact.metadata)).toContain('S-7');
    const dest = join(server.dataDir, 'download.bin');
    const got = await remote.download('DownloadArtifactContent', { artifactId: artifact.artifactId }, dest);
    expect(got.bytes).toBe(bytes.length);
    expect(sha(readFileSync(dest))).toBe(sha(bytes));
  });

  it('uploads a remote file with the platform form fields (entityId, entityType)', async () => {
    const src = join(server.dataDir, 'report.xml');
    writeFileSync(src, '<x/>');
    const res = (await remote.call('UploadRemoteFile', {
      entityId: '0b0b0b0b-0000-4000-a000-000000000001',
      entityType: 'test_reports',
      file: { path: src, fileName: 'report.xml', mimeType: 'application/xml' },
    })) as WireResponse<'UploadRemoteFile'>;
    expect(res.remoteFile.entityId).toBe('0b0b0b0b-0000-4000-a000-000000000001');
    expect(res.remoteFile.fileName).toBe('report.xml');
    expect(res.remoteFile.fileSize).toBe('4');
  });

  it('reports a missing local file as FAILED_PRECONDITION without sending anything', async () => {
    const before = remote.requests;
    await expect(
      remote.call('UploadArtifact', {
        file: { path: join(server.dataDir, 'nope.bin'), fileName: 'nope.bin', mimeType: 'application/octet-stream' },
      }),
    ).rejects.toMatchObject({ code: Code.FAILED_PRECONDITION });
    expect(remote.requests - before).toBe(1);
    const list = await remote.call('ListArtifacts', {});
    expect(list.artifacts.map((a: { title: string }) => a.title)).not.toContain('nope.bin');
  });

  it('keeps the API error of a refused upload and of a download of an unknown artifact', async () => {
    await expect(remote.call('UploadArtifact', { title: 'no file' })).rejects.toMatchObject({ code: Code.INVALID_ARGUMENT });
    await expect(
      remote.download('DownloadArtifactContent', { artifactId: '00000000-0000-4000-a000-00000000dead' }, join(server.dataDir, 'x.bin')),
    ).rejects.toMatchObject({
      code: Code.NOT_FOUND,
    });
  });
});
