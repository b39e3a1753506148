// On a sync replica the policies pulled from the remote decide local calls
// (issue #20): an edit they forbid is refused at once, with the remote's
// error, and never queued or sent; writes pulled from the remote are applied
// as they come, whatever the local policies would let the local user do.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { Code } from '../../src-shared/errors';
import { annotationRequest, closeProxiedPair, openProxiedPair, type ProxiedPair } from './helpers';

let pair: ProxiedPair;
beforeEach(async () => (pair = await openProxiedPair({ colleagues: ['colleague@outpost.local'] })));
afterEach(() => closeProxiedPair(pair));

test("an offline edit the pulled policies forbid is refused at once; a colleague's edit of the same record still arrives", async () => {
  const { remote, proxy, a } = pair;
  const me = a.caller().userId; // the remote user this replica works as
  const { annotation } = await remote.client.CreateAnnotation(annotationRequest('shared'));
  const text = `forbid(principal == User::"${me}", action in [Action::"UpdateAnnotation", Action::"DeleteAnnotation"], resource is Annotation);`;
  await remote.client.CreatePolicy({ name: 'The field laptop only reads annotations', configuration: { cedarPolicy: text } });
  await a.sync();

  const outbox = () => a.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM sync_outbox')!.n;
  const queued = outbox();
  const sent = proxy.forwarded((r) => r.method === 'PATCH' || r.method === 'DELETE');
  const edit = { annotation: { annotationId: annotation.annotationId, name: 'renamed offline' }, updateMask: 'name' };
  await expect(a.call('UpdateAnnotation', edit)).rejects.toMatchObject({
    code: Code.PERMISSION_DENIED,
    message: expect.stringContaining('UpdateAnnotation'),
  });
  await expect(a.call('DeleteAnnotation', { annotationId: annotation.annotationId })).rejects.toMatchObject({
    code: Code.PERMISSION_DENIED,
  });
  // The remote gives the same answer to the same call.
  const there = await remote.api('PATCH', '/api/v1/annotations', edit);
  expect(there.status).toBe(403);
  expect(there.body.code).toBe(Code.PERMISSION_DENIED);
  await a.sync();
  expect(outbox()).toBe(queued);
  expect(proxy.forwarded((r) => r.method === 'PATCH' || r.method === 'DELETE')).toBe(sent);

  // What the policies still allow goes through.
  await a.call('CreateAnnotation', annotationRequest('mine'));

  // A colleague may edit it on the remote: the pull applies that edit here, not authorized as the local user.
  await remote
    .clientFor(remote.tokens['colleague@outpost.local'])
    .UpdateAnnotation({ annotation: { annotationId: annotation.annotationId, name: 'renamed by a colleague' }, updateMask: 'name' });
  await a.sync();
  expect(a.engine.db.get<{ name: string }>('SELECT name FROM annotations WHERE id = ?', [annotation.annotationId])!.name).toBe(
    'renamed by a colleague',
  );
  expect((await a.call('GetAnnotation', { annotationId: annotation.annotationId })).annotation.name).toBe('renamed by a colleague');
});
