import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../../src-shared/errors';
import { fakeClient } from '../testing/fakeClient';
import { artifact } from '../testing/moreFactories';
import { ArtifactWorkspace } from './artifacts.svelte';

describe('ArtifactWorkspace', () => {
  test('select loads versions and a preview of small text content', async () => {
    const a = artifact({ fileType: 'json', mimeType: 'application/json' });
    const fake = fakeClient()
      .on('ListArtifacts', () => ({ artifacts: [a], nextPageToken: '' }))
      .on('ListArtifactVersions', () => ({ artifactVersions: [{ artifactVersionId: 'v1', version: 1 }], nextPageToken: '' }))
      .on('DownloadArtifactContent', () => new TextEncoder().encode('{"ok":true}'));
    const ws = new ArtifactWorkspace(fake.client);
    await ws.load();
    await ws.select(ws.list.items[0]);
    expect(ws.versions).toHaveLength(1);
    expect(ws.preview).toBe('{\n  "ok": true\n}');
  });

  test('a bad filter is a filter error', async () => {
    const fake = fakeClient().on('ListArtifacts', (req) => {
      if (req.filter) throw ApiError.invalid('filter', 'syntax error');
      return { artifacts: [], nextPageToken: '' };
    });
    const ws = new ArtifactWorkspace(fake.client);
    await ws.applyFilter('((');
    expect(ws.list.filterError?.message).toBe('filter: syntax error');
    expect(ws.list.error).toBeUndefined();
  });

  test('upload puts the new artifact first and selects it', async () => {
    const existing = artifact();
    const created = artifact({ title: 'Pressure trace' });
    const fake = fakeClient()
      .on('ListArtifacts', () => ({ artifacts: [existing], nextPageToken: '' }))
      .on('UploadArtifact', () => ({ artifact: created }))
      .on('ListArtifactVersions', () => ({ artifactVersions: [], nextPageToken: '' }))
      .on('DownloadArtifactContent', () => new Uint8Array());
    const ws = new ArtifactWorkspace(fake.client);
    await ws.load();
    expect(await ws.upload(new File(['t,p\n'], 'trace.csv', { type: 'text/csv' }), 'Pressure trace')).toBe(true);
    expect(ws.list.items.map((a) => a.title)).toEqual(['Pressure trace', existing.title]);
    expect(ws.selected?.artifactId).toBe(created.artifactId);
  });

  test('archive replaces the row; a failure is shown', async () => {
    const a = artifact();
    let fail = false;
    const fake = fakeClient()
      .on('ListArtifacts', () => ({ artifacts: [a], nextPageToken: '' }))
      .on('ListArtifactVersions', () => ({ artifactVersions: [], nextPageToken: '' }))
      .on('ArchiveArtifact', () => {
        if (fail) throw ApiError.permissionDenied('read-only profile');
        return { artifact: { ...a, isArchived: true } };
      });
    const ws = new ArtifactWorkspace(fake.client);
    await ws.load();
    await ws.select(ws.list.items[0]);
    await ws.setArchived(true);
    expect(ws.list.items[0].isArchived).toBe(true);
    expect(ws.selected?.isArchived).toBe(true);
    fail = true;
    await ws.setArchived(true);
    expect(ws.actionError).toMatchObject({ code: 'PERMISSION_DENIED', message: 'read-only profile' });
  });

  test('"Archived" lists again with archived ones, keeping the filter that was applied', async () => {
    const fake = fakeClient().on('ListArtifacts', () => ({ artifacts: [artifact()], nextPageToken: '' }));
    const ws = new ArtifactWorkspace(fake.client);
    await ws.applyFilter('file_type == "csv"');
    await ws.setIncludeArchived(true);
    expect(fake.callsTo('ListArtifacts').map((r) => r.filter)).toEqual(['file_type == "csv"', 'include_archived && (file_type == "csv")']);
    expect(ws.list.items).toHaveLength(1);
  });
});
