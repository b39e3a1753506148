import { describe, expect, test } from 'vitest';
import { fakeClient } from '../testing/fakeClient';
import { artifact } from '../testing/moreFactories';
import { artifactFilter, downloadArtifact, formatBytes, isPreviewable, listArtifacts, previewText } from './artifactService';

describe('artifactService', () => {
  test('artifactFilter adds include_archived around the user expression', () => {
    expect(artifactFilter('', false)).toBe('');
    expect(artifactFilter(' file_type == "csv" ', false)).toBe('file_type == "csv"');
    expect(artifactFilter('', true)).toBe('include_archived');
    expect(artifactFilter('a || b', true)).toBe('include_archived && (a || b)');
  });

  test('listArtifacts: newest first, filter only when set', async () => {
    const fake = fakeClient().on('ListArtifacts', () => ({ artifacts: [artifact()], nextPageToken: '' }));
    await listArtifacts(fake.client, { filter: '', includeArchived: false });
    await listArtifacts(fake.client, { filter: 'x', includeArchived: true }, 'tok');
    expect(fake.callsTo('ListArtifacts')).toEqual([
      { pageSize: 50, orderBy: 'created_date desc' },
      { pageSize: 50, orderBy: 'created_date desc', filter: 'include_archived && (x)', pageToken: 'tok' },
    ]);
  });

  test('downloadArtifact insists on bytes', async () => {
    const fake = fakeClient().on('DownloadArtifactContent', (req) => (req.version === 2 ? { not: 'bytes' } : new Uint8Array([1, 2])));
    expect(await downloadArtifact(fake.client, 'a')).toEqual(new Uint8Array([1, 2]));
    await expect(downloadArtifact(fake.client, 'a', 2)).rejects.toThrow('did not return bytes');
  });

  test('previews: small text and JSON only; JSON pretty-printed', () => {
    expect(isPreviewable(artifact({ fileType: 'json', mimeType: 'application/json', sizeBytes: '10' }))).toBe(true);
    expect(isPreviewable(artifact({ fileType: 'csv', mimeType: 'text/csv', sizeBytes: '10' }))).toBe(true);
    expect(isPreviewable(artifact({ fileType: 'png', mimeType: 'image/png', sizeBytes: '10' }))).toBe(false);
    expect(isPreviewable(artifact({ fileType: 'csv', mimeType: 'text/csv', sizeBytes: String(10 * 1024 * 1024) }))).toBe(false);
    expect(previewText(new TextEncoder().encode('{"a":[1]}'), 'json')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(previewText(new TextEncoder().encode('{broken'), 'json')).toBe('{broken');
    expect(previewText(new TextEncoder().encode('t,p\n'), 'csv')).toBe('t,p\n');
  });

  test('formatBytes', () => {
    expect(formatBytes('512')).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(50 * 1024 * 1024)).toBe('50 MB');
    expect(formatBytes('x')).toBe('x');
  });
});
