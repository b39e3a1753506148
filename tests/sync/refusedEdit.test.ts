// A refused edit is that edit's problem (issue #28 item 3): a real second
// server (the remote, behind the strict stand-in proxy) whose Cedar policy
// forbids CreateAnnotationLog refuses the replica's queued comment with 403.
// That entry is marked refused (shown, retryable, dismissable by the owner);
// the rest of the outbox is pushed, the pull goes on, and the sync is not
// stopped as a key problem. Only a 401 is.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { Code } from '../../src-shared/errors';
import { annotationRequest, closeProxiedPair, comment, openProxiedPair, type ProxiedPair } from './helpers';

let pair: ProxiedPair;
beforeEach(async () => (pair = await openProxiedPair()));
afterEach(() => closeProxiedPair(pair));

const remoteNames = async (pair: ProxiedPair) =>
  (await pair.remote.client.ListAnnotations({ pageSize: 1000 })).annotations.map((a: { name: string }) => a.name).sort();

test('a 403 on one outbox entry refuses that entry; the other edits and the pull go on, and the owner can retry it', async () => {
  const { remote, a } = pair;
  const me = a.caller().userId;
  const { annotation } = await remote.client.CreateAnnotation(annotationRequest('shared'));
  await a.sync();

  // Offline on the replica: a comment, then other edits queued behind it.
  await a.call('CreateAnnotationLog', comment(annotation.annotationId, 'seen on the bench'));
  await a.call('UpdateAnnotation', { annotation: { annotationId: annotation.annotationId, name: 'shared, renamed' }, updateMask: 'name' });
  await a.call('CreateAnnotation', annotationRequest('made offline'));
  // Meanwhile the remote forbids this user's comments, and someone adds an annotation there.
  const { policy } = await remote.client.CreatePolicy({
    name: 'No comments from the field laptop',
    configuration: { cedarPolicy: `forbid(principal == User::"${me}", action == Action::"CreateAnnotationLog", resource);` },
  });
  await remote.client.CreateAnnotation(annotationRequest('made on the remote'));

  const run = await a.sync();
  expect(run.authError).toBe(false);
  expect(run.failedEntries).toBe(1);
  expect(run.pending).toBe(0);
  const status = await a.call('GetSyncStatus', {});
  expect(status.state).not.toBe('auth_error');
  expect(status.failedCount).toBe(1);
  const [refused] = (await a.call('ListSyncOutbox', { state: 'failed' })).entries;
  expect(refused).toMatchObject({ operation: 'CreateAnnotationLog', state: 'failed', errorCode: Code.PERMISSION_DENIED });
  expect(refused.lastError).toContain('CreateAnnotationLog');
  // The edits behind it reached the remote, and the pull brought the remote's new annotation.
  expect(await remoteNames(pair)).toEqual(['made offline', 'made on the remote', 'shared, renamed']);
  expect(a.engine.db.get('SELECT 1 FROM annotations WHERE name = ?', ['made on the remote'])).toBeDefined();
  // The comment never reached the remote.
  const remoteLogs = await remote.client.ListAnnotationLogs({ annotationId: annotation.annotationId });
  expect(remoteLogs.annotationLogs.filter((l: { kind: string }) => l.kind === 'ANNOTATION_LOG_KIND_COMMENT')).toEqual([]);

  // Retried while the policy stands: refused again, nothing else affected.
  await a.call('RetrySyncEntry', { seq: refused.seq });
  expect((await a.sync()).failedEntries).toBe(1);
  // The remote lifts the policy: a retry lands the comment.
  await remote.client.ArchivePolicy({ policyId: policy.policyId });
  await a.call('RetrySyncEntry', { seq: refused.seq });
  const after = await a.sync();
  expect(after).toMatchObject({ ok: true, authError: false, failedEntries: 0, pending: 0 });
  const landed = await remote.client.ListAnnotationLogs({ annotationId: annotation.annotationId });
  expect(landed.annotationLogs.some((l: any) => l.comment?.body?.[0]?.text === 'seen on the bench')).toBe(true);
});

test('a refused entry can be dismissed by the owner', async () => {
  const { remote, a } = pair;
  const me = a.caller().userId;
  const { annotation } = await remote.client.CreateAnnotation(annotationRequest('shared'));
  await a.sync();
  await a.call('CreateAnnotationLog', comment(annotation.annotationId, 'will be refused'));
  await remote.client.CreatePolicy({
    name: 'No comments',
    configuration: { cedarPolicy: `forbid(principal == User::"${me}", action == Action::"CreateAnnotationLog", resource);` },
  });
  expect((await a.sync()).failedEntries).toBe(1);
  const [refused] = (await a.call('ListSyncOutbox', { state: 'failed' })).entries;
  // (A refused create is set aside with its record: the comment exists only here.)
  await expect(a.call('DismissSyncEntry', { seq: refused.seq })).rejects.toMatchObject({ code: Code.FAILED_PRECONDITION });
  await a.call('DismissSyncEntry', { seq: refused.seq, discardRecord: true });
  expect((await a.call('ListSyncOutbox', { state: 'failed' })).entries).toEqual([]);
  expect(a.engine.db.get("SELECT 1 FROM annotation_logs WHERE comment_body LIKE '%will be refused%'")).toBeUndefined();
  expect((await a.sync()).ok).toBe(true);
});

test('a 401 (the key itself refused) still stops the sync as a key problem', async () => {
  const { a, proxy } = pair;
  await a.call('CreateAnnotation', annotationRequest('queued'));
  proxy.refuse(() => true, { status: 401, code: Code.UNAUTHENTICATED, message: 'invalid API key' });
  const run = await a.sync();
  expect(run.authError).toBe(true);
  expect((await a.call('GetSyncStatus', {})).state).toBe('auth_error');
});
