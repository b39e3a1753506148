// Comments deleted on the remote leave no trace an incremental pull sees; a
// periodic full listing removes them here — never a comment still on its way
// to the remote, and never a record of a local organization that was never
// synced.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openEngine } from '../../src-main/engine';
import { seedDemoData } from '../../src-main/seed/seedDemoData';
import { comment, annotationRequest, createReplica, startRemote, viewOf, type RemoteServer, type Replica } from './helpers';

let remote: RemoteServer;
let a: Replica;
let seededLocalLogs: number;

beforeEach(async () => {
  remote = await startRemote();
  // A data directory used locally before it was linked: records (the demo dataset's) in its own (local)
  // organization. The seed marks a demo profile, which is never linked: the mark is lifted here, as records of
  // the user's own would carry none.
  const dir = mkdtempSync(join(tmpdir(), 'outpost-replica-a-'));
  const local = openEngine(dir);
  seedDemoData(local.db, { annotations: 20 });
  local.db.run("DELETE FROM settings WHERE key = 'profile.demo'");
  seededLocalLogs = local.db.get<{ n: number }>('SELECT count(*) AS n FROM annotation_logs')!.n;
  local.close();
  a = await createReplica('a', remote.url, remote.token, dir);
});
afterEach(async () => {
  a.close();
  await remote.close();
});

const SIX_HOURS = 6 * 3_600_000;
const logIds = (r: Replica) => Object.keys(viewOf(r.engine.db).logs).sort();
const remoteLogIds = () => Object.keys(viewOf(remote.engine.db).logs).sort();

describe('annotation logs deleted on the remote', () => {
  test('are removed by the periodic full listing, while an offline comment waiting to be pushed stays and arrives', async () => {
    const { annotation } = await remote.client.CreateAnnotation(annotationRequest('discussed'));
    const { annotationLog: kept } = await remote.client.CreateAnnotationLog(comment(annotation.annotationId, 'kept'));
    const { annotationLog: withdrawn } = await remote.client.CreateAnnotationLog(comment(annotation.annotationId, 'withdrawn'));
    await a.sync();
    expect(logIds(a)).toEqual(expect.arrayContaining([kept.annotationLogId, withdrawn.annotationLogId]));

    await remote.client.DeleteAnnotationLog({ annotationId: annotation.annotationId, annotationLogId: withdrawn.annotationLogId });
    await a.call('CreateAnnotationLog', comment(annotation.annotationId, 'written offline'));

    // Not due yet (the first sync started the clock): the deleted comment is still here.
    expect((await a.sync({ reconcileEveryMs: SIX_HOURS })).ok).toBe(true);
    expect(logIds(a)).toContain(withdrawn.annotationLogId);

    // A second offline comment is pending while the listing runs (the pull comes before the push) ...
    const { annotationLog: offline } = (await a.call('CreateAnnotationLog', comment(annotation.annotationId, 'also offline'))) as {
      annotationLog: { annotationLogId: string };
    };
    let afterPull: string[] = [];
    const s = await a.sync({ reconcileEveryMs: 0, onEvent: (e) => e.type === 'phase' && e.phase === 'push' && (afterPull = logIds(a)) });
    expect(s.ok).toBe(true);
    // ... and is still here when the listing is done (the push would bring it back, so only this moment shows it).
    expect(afterPull).toContain(offline.annotationLogId);
    expect(afterPull).not.toContain(withdrawn.annotationLogId);
    expect(s.pending).toBe(0);
    const local = viewOf(a.engine.db).logs;
    expect(Object.keys(local)).not.toContain(withdrawn.annotationLogId);
    expect(Object.keys(local)).toContain(kept.annotationLogId);
    const bodies = Object.values(local)
      .filter((l) => l.annotationId === annotation.annotationId)
      .map((l) => l.comment?.body?.[0]?.text)
      .filter(Boolean)
      .sort();
    expect(bodies).toEqual(['also offline', 'kept', 'written offline']);
    // Every log of the remote's organization here is the remote's, and the remote has every one of ours.
    const remoteIds = remoteLogIds();
    const org = remote.engine.db.get<{ id: string }>('SELECT organization_id AS id FROM memberships LIMIT 1')!.id;
    const ours = a.engine.db
      .all<{ id: string }>('SELECT id FROM annotation_logs WHERE organization_id = ? ORDER BY id', [org])
      .map((r) => r.id);
    expect(ours).toEqual(remoteIds);
  });

  test("leave a local organization's logs alone (they were never synced)", async () => {
    await a.sync();
    await a.sync({ reconcileEveryMs: 0 });
    const org = remote.engine.db.get<{ id: string }>('SELECT organization_id AS id FROM memberships LIMIT 1')!.id;
    expect(seededLocalLogs).toBeGreaterThan(0);
    expect(a.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM annotation_logs WHERE organization_id != ?', [org])!.n).toBe(
      seededLocalLogs,
    );
  });
});
