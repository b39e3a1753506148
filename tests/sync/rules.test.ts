// Rules are pulled (read-only offline): a remote rule arrives whole, with its
// conditions, actions, asset configuration, metadata and current version, and
// later remote changes replace it.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createReplica, startRemote, type Replica } from './helpers';

let remote: Awaited<ReturnType<typeof startRemote>>;
let a: Replica;

beforeEach(async () => {
  remote = await startRemote();
  a = await createReplica('a', remote.url, remote.token);
});
afterEach(async () => {
  a.close();
  await remote.close();
});

const condition = (threshold: number) => ({
  expression: { singleChannelComparison: { channelName: 'chamber.pressure', comparator: 'GREATER_THAN', double: threshold } },
  actions: [
    {
      actionType: 'ANNOTATION',
      configuration: { annotation: { tagIds: ['overpressure'], annotationType: 'ANNOTATION_TYPE_DATA_REVIEW' } },
    },
    { actionType: 'WEBHOOK', configuration: { webhook: { webhookId: 'wh-1' } } },
  ],
});

describe('sync: rules (pull)', () => {
  test('a remote rule arrives whole; remote updates and archives replace it', async () => {
    const { ruleId } = await remote.client.CreateRule({
      update: {
        name: 'Overpressure',
        description: 'too high',
        clientKey: 'overpressure-1',
        assetConfiguration: { assetIds: ['asset-1'], tagIds: ['tag-a'] },
        contextualChannels: { channels: [{ name: 'chamber.temp' }] },
        metadata: [{ key: { name: 'team', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'propulsion' }],
        conditions: [
          condition(10),
          { expression: { singleChannelComparison: { channelName: 'mode', comparator: 'EQUAL', string: 'ABORT' } }, actions: [] },
        ],
      },
    });
    const s = await a.sync();
    expect(s.error).toBeUndefined();
    const remoteRule = async () => (await remote.client.GetRule({ ruleId })).rule;
    expect((await a.call('GetRule', { ruleId })).rule).toEqual(await remoteRule());
    expect((await a.call('ListRules', {})).rules).toHaveLength(1);

    await remote.client.UpdateRule({
      ruleId,
      name: 'Overpressure v2',
      description: 'tighter',
      conditions: [condition(8)],
      versionNotes: 'lower',
    });
    await remote.client.ArchiveRule({ ruleId });
    await a.sync();
    const local = (await a.call('GetRule', { ruleId })).rule;
    expect(local).toEqual(await remoteRule());
    expect(local).toMatchObject({ name: 'Overpressure v2', isArchived: true });
    expect(local.conditions).toHaveLength(1);
    expect(a.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM sync_outbox')!.n).toBe(0);
  });

  test('a rule deleted on the remote (the deprecated alias of archive) is archived here too; undeleted, it comes back', async () => {
    const { ruleId } = await remote.client.CreateRule({ update: { name: 'Doomed', description: '', conditions: [condition(5)] } });
    await a.sync();
    expect((await a.call('ListRules', {})).rules.map((r: { ruleId: string }) => r.ruleId)).toEqual([ruleId]);
    await remote.client.DeleteRule({ ruleId });
    await a.sync();
    const local = async () => (await a.call('GetRule', { ruleId })).rule;
    expect(await local()).toEqual((await remote.client.GetRule({ ruleId })).rule);
    expect((await local()).isArchived).toBe(true);
    await remote.client.UndeleteRule({ ruleId });
    await a.sync();
    expect((await local()).isArchived).toBe(false);
  });
});
