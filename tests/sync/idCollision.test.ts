// Ids never collide silently (issue #30 item 4): a record made here before the
// link and a remote record with the same id (two demo profiles seeded alike,
// a copied data directory) are two records, not one record's update. The pull
// keeps the local one as it is and logs a conflict naming the id; a later pull
// does not log it again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { OperationName } from '../../src-shared/operations';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from '../../src-main/auth/identity';
import type { Caller } from '../../src-main/auth/caller';
import { openEngine } from '../../src-main/engine';
import { invoke } from '../../src-main/services/invoke';
import { localCaller } from '../../src-main/sync/identity';
import { syncReplica } from '../../src-main/sync/assembly/syncReplica';
import type { ReplicaEngine } from '../../src-main/sync/replica';
import { runSync } from '../../src-main/sync/runSync';
import { createMemorySecretStore } from '../../src-main/sync/secretStore';
import { annotationRequest, ASSET, comment, insertAsset, startRemote, type RemoteServer } from './helpers';

let remote: RemoteServer;
let dir: string;
let engine: ReplicaEngine;
let localUser: string;

const owner = (): Caller => ({ ...(localCaller(engine.db) ?? loadCaller(engine.db, localUser)!), owner: true });
const call = (op: OperationName, request: unknown = {}): Promise<any> => invoke({ engine, db: engine.db, caller: owner() }, op, request);
const sync = () =>
  runSync({
    db: engine.db,
    catalog: engine.replica.catalog,
    remote: { baseUrl: remote.url, apiKey: remote.token, timeoutMs: 5_000 },
    retry: { baseDelayMs: 5, maxAttempts: 3 },
  });

beforeEach(async () => {
  remote = await startRemote();
  dir = mkdtempSync(join(tmpdir(), 'outpost-collision-'));
  engine = openEngine(dir, { replica: syncReplica({ secrets: createMemorySecretStore() }) });
  localUser = ensureMember(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME).userId;
});
afterEach(async () => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
  await remote.close();
});

test('a pulled record with the id of a record made here before the link keeps the local one and logs a conflict', async () => {
  insertAsset(engine.db, 'a0000000-0000-4000-a000-00000000000a', ASSET);
  const { annotation: mine } = await call(
    'CreateAnnotation',
    annotationRequest('GPS glitch (mine)', { state: 'ANNOTATION_STATE_FLAGGED' }),
  );
  await call('ArchiveAnnotation', { annotationId: mine.annotationId });
  // The remote holds another record under the same id (what two deterministic demo seeds made).
  const theirs = await remote.client.CreateAnnotation(annotationRequest('GPS glitch (theirs)'));
  remote.engine.db.run('UPDATE annotations SET id = ? WHERE id = ?', [mine.annotationId, theirs.annotation.annotationId]);

  await sync();

  const kept = engine.db.get<{ name: string; archived_date: number | null; organization_id: string }>(
    'SELECT name, archived_date, organization_id FROM annotations WHERE id = ?',
    [mine.annotationId],
  )!;
  expect(kept.name).toBe('GPS glitch (mine)');
  expect(kept.archived_date).not.toBeNull();
  expect(kept.organization_id).toBe(mine.organizationId);
  const conflicts = engine.db.all<{ kind: string; resource: string; record_id: string; winner: string; message: string }>(
    'SELECT kind, resource, record_id, winner, message FROM sync_conflicts',
  );
  expect(conflicts).toHaveLength(1);
  expect(conflicts[0]).toMatchObject({ kind: 'id_collision', record_id: mine.annotationId, winner: 'local' });
  expect(conflicts[0].message).toMatch(/same id/);
  // The conflict is listed to the user like any other.
  const listed = await call('ListSyncConflicts', {});
  expect(listed.conflicts.map((c: { recordId: string }) => c.recordId)).toContain(mine.annotationId);

  // Pulled again (the overlap re-reads it): still the local record, still one conflict.
  await remote.client.UpdateAnnotation({
    annotation: { annotationId: mine.annotationId, name: 'GPS glitch (theirs, renamed)' },
    updateMask: 'name',
  });
  await sync();
  expect(engine.db.get<{ name: string }>('SELECT name FROM annotations WHERE id = ?', [mine.annotationId])!.name).toBe('GPS glitch (mine)');
  expect(engine.db.get<{ n: number }>('SELECT count(*) AS n FROM sync_conflicts')!.n).toBe(1);
});

test('a pulled rule with the id of a rule made here before the link keeps the local one and logs a conflict', async () => {
  const { ruleId } = await call('CreateRule', { update: { name: 'Overpressure (mine)', description: 'made offline', conditions: [] } });
  const theirs = await remote.client.CreateRule({
    update: { name: 'Overpressure (theirs)', description: 'the remote one', conditions: [] },
  });
  remote.engine.db.run('UPDATE rules SET id = ? WHERE id = ?', [ruleId, theirs.ruleId]);

  await sync();

  const kept = () =>
    engine.db.get<{ name: string; description: string; organization_id: string }>(
      'SELECT name, description, organization_id FROM rules WHERE id = ?',
      [ruleId],
    )!;
  const localOrganization = kept().organization_id;
  expect(kept()).toEqual({ name: 'Overpressure (mine)', description: 'made offline', organization_id: localOrganization });
  expect(localOrganization).not.toBe((await remote.client.GetMe({})).organizations[0].organizationId);
  const conflicts = engine.db.all<{ kind: string; resource: string; record_id: string; winner: string }>(
    'SELECT kind, resource, record_id, winner FROM sync_conflicts',
  );
  expect(conflicts).toEqual([{ kind: 'id_collision', resource: 'rule', record_id: ruleId, winner: 'local' }]);

  // Changed on the remote and pulled again: still the local rule, still one conflict.
  await remote.client.UpdateRule({ ruleId, name: 'Overpressure (theirs, renamed)', description: '', conditions: [] });
  await sync();
  expect(kept().name).toBe('Overpressure (mine)');
  expect(engine.db.get<{ n: number }>('SELECT count(*) AS n FROM sync_conflicts')!.n).toBe(1);
});

test('the comments of a colliding record stay apart: neither a log with the id of one made here nor the remote record’s own logs reach it', async () => {
  insertAsset(engine.db, 'a0000000-0000-4000-a000-00000000000a', ASSET);
  const { annotation: mine } = await call('CreateAnnotation', annotationRequest('Strut crack (mine)'));
  const { annotationLog: myComment } = await call('CreateAnnotationLog', comment(mine.annotationId, 'seen on the left strut'));
  // On the remote: another record under the same id, with a comment of its own ...
  const theirs = await remote.client.CreateAnnotation(annotationRequest('Strut crack (theirs)'));
  remote.engine.db.run('UPDATE annotations SET id = ? WHERE id = ?', [mine.annotationId, theirs.annotation.annotationId]);
  remote.engine.db.run('UPDATE annotation_logs SET annotation_id = ? WHERE annotation_id = ?', [
    mine.annotationId,
    theirs.annotation.annotationId,
  ]);
  await remote.client.CreateAnnotationLog(comment(mine.annotationId, 'their comment'));
  // ... and, on a record of its own, a comment under the id of the one made here.
  const { annotation: other } = await remote.client.CreateAnnotation(annotationRequest('Other'));
  const { annotationLog: clash } = await remote.client.CreateAnnotationLog(comment(other.annotationId, 'a clashing comment'));
  remote.engine.db.run('UPDATE annotation_logs SET id = ? WHERE id = ?', [myComment.annotationLogId, clash.annotationLogId]);

  await sync();

  const logsOf = (annotationId: string) =>
    engine.db
      .all<{ comment_body: string | null }>('SELECT comment_body FROM annotation_logs WHERE annotation_id = ? AND kind = 1 ORDER BY pk', [
        annotationId,
      ])
      .map((l) => JSON.stringify(l.comment_body));
  expect(logsOf(mine.annotationId).join()).toContain('seen on the left strut');
  expect(logsOf(mine.annotationId).join()).not.toContain('their comment');
  expect(
    engine.db.get<{ annotation_id: string }>('SELECT annotation_id FROM annotation_logs WHERE id = ?', [myComment.annotationLogId]),
  ).toEqual({ annotation_id: mine.annotationId });
  const conflicts = engine.db.all<{ kind: string; resource: string; record_id: string }>(
    'SELECT kind, resource, record_id FROM sync_conflicts ORDER BY resource',
  );
  expect(conflicts).toEqual([
    { kind: 'id_collision', resource: 'annotation', record_id: mine.annotationId },
    { kind: 'id_collision', resource: 'annotation_log', record_id: myComment.annotationLogId },
  ]);
});
