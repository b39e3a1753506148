// Per-field conflict resolution between two replicas, the conflict log over
// the HTTP extension operations, and undo as a synced edit.
import type { Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createApiKey } from '../../src-main/auth/apiKeys';
import { createApiServer, listen } from '../../src-main/http/server';
import { annotationRequest, createReplica, startRemote, viewOf, type Replica } from './helpers';

let remote: Awaited<ReturnType<typeof startRemote>>;
let a: Replica;
let b: Replica;
let id: string;

beforeEach(async () => {
  remote = await startRemote(['second@outpost.local']);
  a = await createReplica('a', remote.url, remote.token);
  b = await createReplica('b', remote.url, remote.tokens['second@outpost.local']);
  id = (await remote.client.CreateAnnotation(annotationRequest('shared', { description: 'orig' }))).annotation.annotationId;
  await a.sync();
  await b.sync();
});
afterEach(async () => {
  a.close();
  b.close();
  await remote.close();
});

const rename = (r: Replica, name: string) => r.call('UpdateAnnotation', { annotation: { annotationId: id, name }, updateMask: 'name' });
const converged = () => {
  const v = viewOf(remote.engine.db);
  expect(viewOf(a.engine.db)).toEqual(v);
  expect(viewOf(b.engine.db)).toEqual(v);
  return v.annotations[id];
};

describe('per-field conflicts', () => {
  test('different fields changed on each side: both kept, no conflict', async () => {
    await a.call('UpdateAnnotation', { annotation: { annotationId: id, description: 'from a' }, updateMask: 'description' });
    await rename(b, 'from b');
    await a.sync();
    await b.sync();
    await a.sync();
    expect(converged()).toMatchObject({ name: 'from b', description: 'from a' });
    expect((await b.call('ListSyncConflicts', {})).conflicts).toEqual([]);
  });

  test('the same field: the later write wins, the loser is logged (remote later)', async () => {
    await rename(b, 'b, earlier');
    await rename(a, 'a, later');
    await a.sync(); // reaches the remote after b's edit was made
    const s = await b.sync();
    expect(s.progress.conflicts).toBe(1);
    await a.sync();
    expect(converged().name).toBe('a, later');
    const [c] = (await b.call('ListSyncConflicts', {})).conflicts;
    expect(c).toMatchObject({
      kind: 'field',
      field: 'name',
      winner: 'remote',
      localValue: 'b, earlier',
      remoteValue: 'a, later',
      state: 'open',
    });
    // b's losing edit was not pushed.
    expect((await b.call('ListSyncOutbox', { state: 'all' })).entries.map((e: any) => e.state)).toContain('superseded');
  });

  test('the same field: the later write wins (local later), and undo restores the loser as a synced edit', async () => {
    await rename(a, 'a, earlier');
    await a.sync();
    await rename(b, 'b, later');
    await b.sync();
    await a.sync();
    expect(converged().name).toBe('b, later');

    // Over HTTP, as the app's renderer would: list, undo.
    // The replica owner's key (only the owner writes on a replica).
    const key = createApiKey(b.engine.db, 'second@outpost.local', b.caller().organizations[0].name, '', { owner: true }).token;
    const server: Server = createApiServer(b.engine);
    const url = await listen(server, 0);
    try {
      const api = async (method: string, path: string) => {
        const res = await fetch(url + path, {
          method,
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: method === 'POST' ? '{}' : undefined,
        });
        return { status: res.status, body: (await res.json()) as any };
      };
      const list = await api('GET', '/api/v1/outpost/sync/conflicts');
      expect(list.status).toBe(200);
      expect(list.body.conflicts).toHaveLength(1);
      expect(list.body.conflicts[0]).toMatchObject({ field: 'name', winner: 'local', localValue: 'b, later', remoteValue: 'a, earlier' });
      const undo = await api('POST', `/api/v1/outpost/sync/conflicts/${list.body.conflicts[0].conflictId}:undo`);
      expect(undo.status).toBe(200);
      expect(undo.body.conflict.state).toBe('undone');
      const again = await api('POST', `/api/v1/outpost/sync/conflicts/${list.body.conflicts[0].conflictId}:undo`);
      expect(again.status).toBe(400);
      const status = await api('GET', '/api/v1/outpost/sync/status');
      expect(status.body).toMatchObject({ replica: true, pendingCount: 1, openConflictCount: 0, state: 'idle' });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
    await b.sync();
    await a.sync();
    expect(converged().name).toBe('a, earlier');
  });

  test('archive on one side, edits on the other: both apply', async () => {
    await remote.client.ArchiveAnnotation({ annotationId: id });
    await rename(b, 'renamed while archived remotely');
    await b.sync();
    await a.sync();
    expect(converged()).toMatchObject({ name: 'renamed while archived remotely', isArchived: true });
  });

  test('a state change through a log conflicts with a state update like any write of the field', async () => {
    await b.call('CreateAnnotationLog', {
      annotationId: id,
      kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE',
      stateUpdate: { state: 'ANNOTATION_LOG_STATE_RESOLVED' },
    });
    await a.call('UpdateAnnotation', { annotation: { annotationId: id, state: 'ANNOTATION_STATE_FLAGGED' }, updateMask: 'state' });
    await a.sync();
    await b.sync();
    await a.sync();
    const final = converged();
    expect(final.state).toBe('ANNOTATION_STATE_FLAGGED');
    // b's state log lost and was withdrawn; its loss is in b's conflict log.
    expect((await b.call('ListSyncConflicts', {})).conflicts[0]).toMatchObject({
      field: 'state',
      winner: 'remote',
      localValue: 'ANNOTATION_STATE_RESOLVED',
    });
  });
});
