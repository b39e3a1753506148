// The desktop's change feed (issue #30 item 1): the engine host, in a real
// forked process, pushes `changes` events through its supervisor (the path
// main relays to the window): a write names its record, many writes in a burst
// arrive coalesced.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Change } from '../../src-shared/api/changes';
import type { CallResult } from '../../src-main/host/protocol';
import { startTestHost, type TestHost } from '../support/engineHost';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost({ runner: 'fork' });
});
afterAll(async () => host?.close());

const data = (result: CallResult): any => {
  if (!result.ok) throw new Error(`call failed: ${JSON.stringify(result.error)}`);
  return result.data;
};
const changes = (): Change[] => host.events.filter((e) => e.type === 'changes').flatMap((e) => e.changes as Change[]);

async function waitFor(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; changes: ${JSON.stringify(changes())}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('changes from the engine host', () => {
  test('a write is pushed as a change naming its record; a burst of writes comes coalesced', async () => {
    data(await host.supervisor.call('CreateAsset', { name: 'Rig-1' }));
    const created = data(
      await host.supervisor.call('CreateAnnotation', {
        name: 'live',
        startTime: '2026-01-01T00:00:00Z',
        endTime: '2026-01-01T00:01:00Z',
        assets: ['Rig-1'],
      }),
    );
    const id = created.annotation.annotationId as string;
    await waitFor('the create', () => changes().some((c) => c.resource === 'annotations' && c.ids !== 'many' && c.ids.includes(id)));
    expect(changes().find((c) => c.ids !== 'many' && c.ids.includes(id))).toMatchObject({ reason: 'write' });

    const before = host.events.length;
    const names = Array.from({ length: 20 }, (_, i) => `burst ${i}`);
    await Promise.all(
      names.map((name) => host.supervisor.call('UpdateAnnotation', { annotation: { annotationId: id, name }, updateMask: 'name' })),
    );
    await waitFor('the burst', () => host.events.slice(before).some((e) => e.type === 'changes'));
    await new Promise((r) => setTimeout(r, 600)); // anything still coalescing arrives
    const burst = host.events.slice(before).filter((e) => e.type === 'changes');
    expect(burst.length).toBeLessThan(names.length);
    expect(burst.flatMap((e) => e.changes as Change[]).every((c) => c.ids !== 'many' && c.ids.includes(id))).toBe(true);
  });
});
