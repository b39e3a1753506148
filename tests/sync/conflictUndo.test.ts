// Undo of a lost field for every replicated resource that has one: the
// conflict says it is undoable, UndoSyncConflict writes the losing value back
// as an ordinary synced edit, and the next sync puts it on the remote. A
// conflict without an automatic undo says so and is refused with
// FAILED_PRECONDITION, changing nothing.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Code } from '../../src-shared/errors';
import { onRemote, stageUpload } from './artifactKit';
import { annotationRequest, createReplica, startRemote, type Replica } from './helpers';
import { importSample } from './testReportHelpers';

let remote: Awaited<ReturnType<typeof startRemote>>;
let a: Replica;

beforeEach(async () => {
  remote = await startRemote();
  a = await createReplica('a', remote.url, remote.token);
  await a.sync();
});
afterEach(async () => {
  a.close();
  await remote.close();
});

/** Syncs, expects exactly one open conflict on `resource`, undoes it, syncs again. */
async function undoOnly(resource: string, field: string): Promise<void> {
  const s = await a.sync();
  expect(s.ok).toBe(true);
  const { conflicts } = await a.call('ListSyncConflicts', {});
  expect(conflicts).toHaveLength(1);
  expect(conflicts[0]).toMatchObject({ resource, field, winner: 'remote', state: 'open', undoable: true });
  const { conflict } = await a.call('UndoSyncConflict', { conflictId: conflicts[0].conflictId });
  expect(conflict).toMatchObject({ state: 'undone', undoable: false });
  const again = await a.sync();
  expect(again.ok).toBe(true);
  expect(again.pending).toBe(0);
}

/** The remote's competing write must be later than the local one (a tie on the clock goes to the local edit). */
async function later(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now + 1) await new Promise((r) => setTimeout(r, 2));
}

const PERMIT = 'permit(principal, action, resource);';
// A forbid that locks out nothing the sync needs (policies decide since #20; a forbid of everything would refuse the sync's own calls).
const FORBID = 'forbid(principal, action == Action::"DeleteAnnotation", resource);';

describe('undo of a lost field', () => {
  test('policy configuration', async () => {
    const { policy } = await remote.client.CreatePolicy({ name: 'p', configuration: { cedarPolicy: PERMIT } });
    await a.sync();
    await a.call('UpdatePolicy', {
      policy: { policyId: policy.policyId, configuration: { cedarPolicy: FORBID } },
      updateMask: 'configuration',
    });
    await later();
    await remote.client.UpdatePolicy({
      policy: { policyId: policy.policyId, configuration: { cedarPolicy: `${PERMIT}\n${FORBID}` } },
      updateMask: 'configuration',
    });
    await undoOnly('policy', 'configuration');
    expect((await remote.client.GetPolicy({ policyId: policy.policyId })).policy.configuration.cedarPolicy).toBe(FORBID);
  });

  test('saved search name', async () => {
    const { savedSearch } = await remote.client.CreateSavedSearch({
      name: 'shared',
      properties: { overviewMode: 'OVERVIEW_MODE_ANNOTATIONS' },
    });
    await a.sync();
    await a.call('UpdateSavedSearch', { savedSearch: { savedSearchId: savedSearch.savedSearchId, name: 'mine' }, updateMask: 'name' });
    await later();
    await remote.client.UpdateSavedSearch({
      savedSearch: { savedSearchId: savedSearch.savedSearchId, name: 'theirs' },
      updateMask: 'name',
    });
    await undoOnly('saved_search', 'name');
    expect((await remote.client.GetSavedSearch({ savedSearchId: savedSearch.savedSearchId })).savedSearch.name).toBe('mine');
  });

  test('test report name', async () => {
    await importSample(a);
    await a.sync();
    const id = remote.engine.db.get<{ id: string }>('SELECT id FROM test_reports')!.id;
    await a.call('UpdateTestReport', { testReport: { testReportId: id, name: 'local name' }, updateMask: 'name' });
    await later();
    await remote.client.UpdateTestReport({ testReport: { testReportId: id, name: 'remote name' }, updateMask: 'name' });
    await undoOnly('test_report', 'name');
    expect((await remote.client.GetTestReport({ testReportId: id })).testReport.name).toBe('local name');
  });

  test('artifact link', async () => {
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('x'));
    const { artifact } = await onRemote(remote.engine, 'CreateStructuredArtifact', { title: 'plan', content: { step: 1 } });
    const { artifact: second } = await onRemote(remote.engine, 'CreateArtifactVersion', {
      artifactId: artifact.artifactId,
      file: stageUpload(remote.dataDir, JSON.stringify({ step: 2 }), 'plan.json', 'application/json'),
    });
    const link = {
      artifactId: artifact.artifactId,
      relation: 'ARTIFACT_LINK_RELATION_ATTACHED_TO',
      entityType: 'ARTIFACT_ENTITY_TYPE_ANNOTATION',
      entityId: annotation.annotationId,
    };
    await a.sync();
    // Offline the link points at version 1; then the remote points the same link at version 2 (the later write).
    await a.call('LinkArtifact', { ...link, artifactVersionId: artifact.artifactVersionId });
    await later();
    await onRemote(remote.engine, 'LinkArtifact', { ...link, artifactVersionId: second.artifactVersionId });
    await undoOnly('artifact', `link:ATTACHED_TO:ANNOTATION:${annotation.annotationId}`);
    const { links } = (await onRemote(remote.engine, 'GetArtifact', { artifactId: artifact.artifactId })).artifact;
    expect(links).toEqual([expect.objectContaining({ entityId: annotation.annotationId, artifactVersionId: artifact.artifactVersionId })]);
  });

  test('a record gone from the remote: not undoable, and Undo is refused without changing anything', async () => {
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('gone'));
    await a.sync();
    await a.call('UpdateAnnotation', { annotation: { annotationId: annotation.annotationId, name: 'kept here' }, updateMask: 'name' });
    remote.engine.db.run('DELETE FROM annotations WHERE id = ?', [annotation.annotationId]); // a hard delete upstream
    await a.sync();
    const { conflicts } = await a.call('ListSyncConflicts', {});
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({ kind: 'remote_missing', undoable: false });
    const before = a.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM sync_outbox')!.n;
    await expect(a.call('UndoSyncConflict', { conflictId: conflicts[0].conflictId })).rejects.toMatchObject({
      code: Code.FAILED_PRECONDITION,
    });
    expect(a.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM sync_outbox')!.n).toBe(before);
    expect((await a.call('ListSyncConflicts', {})).conflicts[0].state).toBe('open');
  });
});
