// RuleService over real HTTP on loopback: the full rule model (reference §6),
// create-or-update with versions and change messages, client keys, batch get,
// archive state, literal-vs-variable routes and organization isolation.
import { parseTimestamp } from '../../src-shared/api/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchRoute } from '../../src-main/http/routes';
import { startTestServer, type TestServer } from '../support/testServer';
import { expectViolation, expectNotFound, UUID, RFC3339, unarchivedMetadata } from '../support/assertions';

let s: TestServer;
let otherToken: string;

beforeAll(async () => {
  s = await startTestServer();
  otherToken = s.newToken('x@y', 'Other Org');
});
afterAll(async () => s.close());

let seq = 0;
const uniq = (p: string) => `${p}-${++seq}-${Date.now()}`;

const pressureCondition = (threshold = 10) => ({
  expression: { singleChannelComparison: { channelName: 'chamber.pressure', comparator: 'GREATER_THAN', double: threshold } },
  actions: [
    {
      actionType: 'ANNOTATION',
      configuration: { annotation: { tagIds: ['overpressure'], annotationType: 'ANNOTATION_TYPE_DATA_REVIEW' } },
    },
  ],
});

const calculatedCondition = () => ({
  expression: {
    calculatedChannel: {
      channelReferences: { $1: { name: 'wheel.speed' }, $speed_kph: { name: 'gps.speed' }, $Temp: { calculatedChannelVersionId: 'ccv-7' } },
      expression: '$1 > $speed_kph * 1.1 && $Temp > 80',
    },
  },
  actions: [
    { actionType: 'NOTIFICATION', configuration: { notification: { recipientUserIds: ['u-1', 'u-2'] } } },
    { actionType: 'WEBHOOK', configuration: { webhook: { webhookId: 'wh-1' } } },
  ],
});

function ruleBody(extra: Record<string, unknown> = {}) {
  return { name: uniq('rule'), description: 'd', conditions: [pressureCondition()], ...extra };
}

async function createRule(update: Record<string, unknown>, token?: string): Promise<string> {
  const res = await s.api('POST', '/api/v1/rules', { update }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Object.keys(res.body)).toEqual(['ruleId']);
  return res.body.ruleId;
}

async function getRule(ruleId: string) {
  const res = await s.api('GET', `/api/v1/rules?rule_id=${ruleId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.rule;
}

async function versions(ruleId: string) {
  const res = await s.api('GET', `/api/v1/rules/${ruleId}/versions`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.ruleVersions as any[];
}

/** An UpdateRuleRequest that restates a rule exactly (ids included). */
function restate(rule: any, extra: Record<string, unknown> = {}) {
  return {
    ruleId: rule.ruleId,
    name: rule.name,
    description: rule.description,
    metadata: rule.metadata,
    assetConfiguration: rule.assetConfiguration,
    contextualChannels: rule.contextualChannels,
    isExternal: rule.isExternal,
    conditions: rule.conditions.map((c: any) => ({
      ruleConditionId: c.ruleConditionId,
      expression: c.expression,
      actions: c.actions.map((a: any) => ({ ruleActionId: a.ruleActionId, actionType: a.actionType, configuration: a.configuration })),
    })),
    ...extra,
  };
}

const RULE_KEYS = [
  'ruleId',
  'assetId',
  'name',
  'description',
  'isEnabled',
  'createdDate',
  'modifiedDate',
  'createdByUserId',
  'modifiedByUserId',
  'organizationId',
  'conditions',
  'ruleVersion',
  'clientKey',
  'assetConfiguration',
  'contextualChannels',
  'deletedDate',
  'isExternal',
  'metadata',
  'archivedDate',
  'isArchived',
  'isLiveEvaluationEnabled',
  'currentVersionId',
  'folderIds',
].sort();

describe('CreateRule + GetRule: the full rule model', () => {
  it('stores and returns every part of the rule in the exact wire shape', async () => {
    const ruleId = await createRule({
      name: 'Overpressure',
      description: 'chamber pressure too high',
      clientKey: 'overpressure-1',
      versionNotes: 'first cut',
      assetConfiguration: { assetIds: ['asset-1', 'asset-2'], tagIds: ['tag-a'] },
      contextualChannels: { channels: [{ name: 'chamber.temp' }, { calculatedChannelVersionId: 'ccv-1' }] },
      isExternal: true,
      metadata: [
        { key: { name: 'team', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'propulsion' },
        { key: { name: 'sev' }, numberValue: 2 },
      ],
      conditions: [
        pressureCondition(12.5),
        calculatedCondition(),
        {
          expression: {
            single_channel_comparison: { channel_component: 'engine', channel_name: 'mode', comparator: 'EQUAL', string: 'ABORT' },
          },
          actions: [],
        },
        { expression: { singleChannelComparison: { channelName: 'valve.state', comparator: 'NOT_EQUAL', lastValue: {} } }, actions: [] },
      ],
    });
    expect(ruleId).toMatch(UUID);
    const rule = await getRule(ruleId);
    expect(Object.keys(rule).sort()).toEqual(RULE_KEYS);
    expect(rule).toMatchObject({
      ruleId,
      assetId: '',
      name: 'Overpressure',
      description: 'chamber pressure too high',
      isEnabled: true,
      clientKey: 'overpressure-1',
      assetConfiguration: { assetIds: ['asset-1', 'asset-2'], tagIds: ['tag-a'] },
      contextualChannels: {
        channels: [
          { name: 'chamber.temp', component: '' },
          { name: '', component: '', calculatedChannelVersionId: 'ccv-1' },
        ],
      },
      deletedDate: null,
      isExternal: true,
      metadata: [
        { key: { name: 'team', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'propulsion' },
        { key: { name: 'sev', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: 2 },
      ],
      archivedDate: null,
      isArchived: false,
      isLiveEvaluationEnabled: true,
      folderIds: [],
    });
    expect(rule.contextualChannels.channels[0]).not.toHaveProperty('calculatedChannelVersionId'); // proto3 optional: omitted
    expect(rule.createdDate).toMatch(RFC3339);
    expect(rule.modifiedDate).toBe(rule.createdDate);
    expect(rule.createdByUserId).toMatch(UUID);
    expect(rule.modifiedByUserId).toBe(rule.createdByUserId);

    // RuleVersion: version is a string
    expect(rule.ruleVersion).toEqual({
      ruleId,
      ruleVersionId: rule.currentVersionId,
      version: '1',
      createdDate: rule.createdDate,
      createdByUserId: rule.createdByUserId,
      versionNotes: 'first cut',
      generatedChangeMessage: 'Created rule with 4 conditions and 3 actions',
      deletedDate: null,
      archivedDate: null,
      isArchived: false,
    });

    // conditions and actions carry their own ids, version ids, timestamps and users
    expect(rule.conditions).toHaveLength(4);
    const [c0, c1, c2, c3] = rule.conditions;
    expect(Object.keys(c0).sort()).toEqual(
      [
        'ruleConditionId',
        'ruleId',
        'expression',
        'createdDate',
        'modifiedDate',
        'createdByUserId',
        'modifiedByUserId',
        'actions',
        'ruleConditionVersionId',
      ].sort(),
    );
    expect(c0).toMatchObject({
      ruleId,
      createdDate: rule.createdDate,
      modifiedDate: rule.createdDate,
      createdByUserId: rule.createdByUserId,
      modifiedByUserId: rule.createdByUserId,
    });
    expect(c0.ruleConditionId).toMatch(UUID);
    expect(c0.ruleConditionVersionId).toMatch(UUID);
    expect(c0.expression).toEqual({
      singleChannelComparison: { channelComponent: '', channelName: 'chamber.pressure', comparator: 'GREATER_THAN', double: 12.5 },
    });
    expect(c0.actions).toEqual([
      {
        ruleActionId: expect.stringMatching(UUID),
        ruleConditionId: c0.ruleConditionId,
        actionType: 'ANNOTATION',
        configuration: { annotation: { tagIds: ['overpressure'], annotationType: 'ANNOTATION_TYPE_DATA_REVIEW', metadata: [] } },
        createdDate: rule.createdDate,
        modifiedDate: rule.createdDate,
        createdByUserId: rule.createdByUserId,
        modifiedByUserId: rule.createdByUserId,
        ruleActionVersionId: expect.stringMatching(UUID),
      },
    ]);
    // map keys are reference symbols, never case-converted
    expect(c1.expression).toEqual({
      calculatedChannel: {
        channelReferences: {
          $1: { name: 'wheel.speed', component: '' },
          $speed_kph: { name: 'gps.speed', component: '' },
          $Temp: { name: '', component: '', calculatedChannelVersionId: 'ccv-7' },
        },
        expression: '$1 > $speed_kph * 1.1 && $Temp > 80',
        functionDependencies: [],
        calculatedChannelDependencies: [{ calculatedChannelVersionId: 'ccv-7' }],
      },
    });
    expect(c1.actions.map((a: any) => [a.actionType, a.configuration])).toEqual([
      ['NOTIFICATION', { notification: { recipientUserIds: ['u-1', 'u-2'] } }],
      ['WEBHOOK', { webhook: { webhookId: 'wh-1' } }],
    ]);
    // snake_case input, string threshold, component
    expect(c2.expression).toEqual({
      singleChannelComparison: { channelComponent: 'engine', channelName: 'mode', comparator: 'EQUAL', string: 'ABORT' },
    });
    expect(c2.actions).toEqual([]);
    // an empty message threshold is `{}`
    expect(c3.expression).toEqual({
      singleChannelComparison: { channelComponent: '', channelName: 'valve.state', comparator: 'NOT_EQUAL', lastValue: {} },
    });
  });

  it('accepts comparator and action kind as numbers, is_enabled/is_live_evaluation_enabled false, and an annotation action with assignee and metadata', async () => {
    const ruleId = await createRule({
      name: uniq('numbers'),
      isEnabled: false,
      isLiveEvaluationEnabled: false,
      conditions: [
        {
          expression: { singleChannelComparison: { channelName: 'x', comparator: 1, double: '-Infinity' } },
          actions: [
            {
              actionType: 2,
              configuration: {
                annotation: {
                  annotationType: 'ANNOTATION_TYPE_PHASE',
                  assignedToUserId: 'u-9',
                  metadata: [{ key: { name: 'k' }, booleanValue: true }],
                },
              },
            },
          ],
        },
      ],
    });
    const rule = await getRule(ruleId);
    expect(rule.isEnabled).toBe(false);
    expect(rule.isLiveEvaluationEnabled).toBe(false);
    expect(rule.conditions[0].expression.singleChannelComparison).toEqual({
      channelComponent: '',
      channelName: 'x',
      comparator: 'LESS_THAN',
      double: '-Infinity',
    });
    expect(rule.conditions[0].actions[0].actionType).toBe('ANNOTATION');
    expect(rule.conditions[0].actions[0].configuration).toEqual({
      annotation: {
        tagIds: [],
        annotationType: 'ANNOTATION_TYPE_PHASE',
        assignedToUserId: 'u-9',
        metadata: unarchivedMetadata({ key: { name: 'k', type: 'METADATA_KEY_TYPE_BOOLEAN' }, booleanValue: true }),
      },
    });
  });

  it.each([
    ['a missing name', { name: undefined }, 'update.name'],
    [
      'an action whose configuration does not match action_type',
      {
        conditions: [
          { ...pressureCondition(), actions: [{ actionType: 'WEBHOOK', configuration: { notification: { recipientUserIds: ['u'] } } }] },
        ],
      },
      'update.conditions[0].actions[0].configuration',
    ],
    [
      'an action with two configurations',
      {
        conditions: [
          {
            ...pressureCondition(),
            actions: [{ actionType: 'WEBHOOK', configuration: { webhook: { webhookId: 'w' }, notification: {} } }],
          },
        ],
      },
      'update.conditions[0].actions[0].configuration',
    ],
    [
      'an unspecified action kind',
      {
        conditions: [
          { ...pressureCondition(), actions: [{ actionType: 'ACTION_KIND_UNSPECIFIED', configuration: { webhook: { webhookId: 'w' } } }] },
        ],
      },
      'update.conditions[0].actions[0].action_type',
    ],
    [
      'an unknown action kind',
      { conditions: [{ ...pressureCondition(), actions: [{ actionType: 'EMAIL', configuration: {} }] }] },
      'update.conditions[0].actions[0].action_type',
    ],
    [
      'an unspecified comparator',
      {
        conditions: [
          { expression: { singleChannelComparison: { channelName: 'x', comparator: 'CONDITION_COMPARATOR_UNSPECIFIED', double: 1 } } },
        ],
      },
      'update.conditions[0].expression.single_channel_comparison.comparator',
    ],
    [
      'a prefixed comparator name (the enum is unprefixed)',
      {
        conditions: [
          { expression: { singleChannelComparison: { channelName: 'x', comparator: 'CONDITION_COMPARATOR_LESS_THAN', double: 1 } } },
        ],
      },
      'update.conditions[0].expression.single_channel_comparison.comparator',
    ],
    [
      'two thresholds',
      { conditions: [{ expression: { singleChannelComparison: { channelName: 'x', comparator: 'EQUAL', double: 1, string: 'a' } } }] },
      'update.conditions[0].expression.single_channel_comparison',
    ],
    [
      'no threshold',
      { conditions: [{ expression: { singleChannelComparison: { channelName: 'x', comparator: 'EQUAL' } } }] },
      'update.conditions[0].expression.single_channel_comparison',
    ],
    [
      'both expression kinds',
      {
        conditions: [
          {
            expression: {
              singleChannelComparison: { channelName: 'x', comparator: 'EQUAL', double: 1 },
              calculatedChannel: { channelReferences: { $1: { name: 'a' } }, expression: '$1 > 0' },
            },
          },
        ],
      },
      'update.conditions[0].expression',
    ],
    ['no expression', { conditions: [{ actions: [] }] }, 'update.conditions[0].expression'],
    [
      'an expression symbol that channel_references does not define',
      { conditions: [{ expression: { calculatedChannel: { channelReferences: { $1: { name: 'a' } }, expression: '$1 > $2' } } }] },
      'update.conditions[0].expression.calculated_channel.expression',
    ],
    [
      'a reference key that is not a symbol',
      { conditions: [{ expression: { calculatedChannel: { channelReferences: { speed: { name: 'a' } }, expression: '1 > 0' } } }] },
      'update.conditions[0].expression.calculated_channel.channel_references',
    ],
    [
      'a channel reference with both name and calculated_channel_version_id',
      {
        conditions: [
          {
            expression: {
              calculatedChannel: { channelReferences: { $1: { name: 'a', calculatedChannelVersionId: 'v' } }, expression: '$1 > 0' },
            },
          },
        ],
      },
      'update.conditions[0].expression.calculated_channel.channel_references.$1.name',
    ],
    [
      'a contextual channel with no name',
      { contextualChannels: { channels: [{ component: 'c' }] } },
      'update.contextual_channels.channels[0].name',
    ],
    [
      'an empty webhook id',
      { conditions: [{ ...pressureCondition(), actions: [{ actionType: 'WEBHOOK', configuration: { webhook: { webhookId: '' } } }] }] },
      'update.conditions[0].actions[0].configuration.webhook.webhook_id',
    ],
    ['a rule_id (CreateRule always creates)', { ruleId: 'abc' }, 'update.rule_id'],
    [
      'a rule_condition_id on a new rule',
      { conditions: [{ ...pressureCondition(), ruleConditionId: 'c-1' }] },
      'update.conditions[0].rule_condition_id',
    ],
    [
      'duplicate metadata keys',
      {
        metadata: [
          { key: { name: 'a' }, stringValue: 'x' },
          { key: { name: 'a' }, stringValue: 'y' },
        ],
      },
      'update.metadata',
    ],
  ])('rejects %s', async (_label, extra, field) => {
    const before = s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM rules')!.n;
    const res = await s.api('POST', '/api/v1/rules', { update: { ...ruleBody(), ...extra } });
    expectViolation(res, field);
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
    expect(s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM rules')!.n).toBe(before);
  });

  it('requires the CreateRule body to be wrapped in `update`', async () => {
    expectViolation(await s.api('POST', '/api/v1/rules', ruleBody()), 'update');
  });
});

describe('client keys', () => {
  it('are unique per organization: a second CreateRule with the same key is ALREADY_EXISTS (409)', async () => {
    const key = uniq('ck');
    await createRule(ruleBody({ clientKey: key }));
    const dup = await s.api('POST', '/api/v1/rules', { update: ruleBody({ clientKey: key }) });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe(6);
    expect(dup.body.message).toContain(key);
    // another organization may use the same key
    await createRule(ruleBody({ clientKey: key }), otherToken);
  });

  it('UpdateRule with a known client_key updates that rule; an unknown one creates a rule with it', async () => {
    const key = uniq('ck');
    const created = await s.api('PUT', '/api/v1/rules', ruleBody({ clientKey: key, name: 'v1' }));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const updated = await s.api('PUT', '/api/v1/rules', ruleBody({ clientKey: key, name: 'v2' }));
    expect(updated.body.ruleId).toBe(created.body.ruleId);
    const rule = (await s.api('GET', `/api/v1/rules?client_key=${key}`)).body.rule;
    expect(rule).toMatchObject({ ruleId: created.body.ruleId, name: 'v2', clientKey: key });
    expect(rule.ruleVersion.version).toBe('2');
  });

  it('may be set once on a rule that has none, and is immutable after that', async () => {
    const ruleId = await createRule(ruleBody({ name: 'keyless' }));
    const taken = uniq('taken');
    await createRule(ruleBody({ clientKey: taken }));
    const conflict = await s.api('PUT', '/api/v1/rules', ruleBody({ ruleId, name: 'keyless', clientKey: taken }));
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe(6);

    const key = uniq('later');
    const set = await s.api('PUT', '/api/v1/rules', ruleBody({ ruleId, name: 'keyless', clientKey: key }));
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const rule = await getRule(ruleId);
    expect(rule.clientKey).toBe(key);
    expect(rule.ruleVersion.generatedChangeMessage).toMatch(/^Updated .*client_key/);

    expectViolation(await s.api('PUT', '/api/v1/rules', ruleBody({ ruleId, name: 'keyless', clientKey: uniq('changed') })), 'client_key');
    // omitting the key keeps it
    await s.api('PUT', '/api/v1/rules', ruleBody({ ruleId, name: 'keyless' }));
    expect((await getRule(ruleId)).clientKey).toBe(key);
  });
});

describe('UpdateRule: full replacement, versions and change messages', () => {
  it('makes a new version with notes and a generated change message on every change', async () => {
    const ruleId = await createRule({
      name: 'Temp',
      description: 'orig',
      metadata: [{ key: { name: 'a' }, stringValue: '1' }],
      conditions: [pressureCondition(10), calculatedCondition()],
    });
    const v1 = await getRule(ruleId);
    const [c0, c1] = v1.conditions;

    // rename; change condition 0's threshold (keeping its action); add an action to condition 1 (keeping both of its actions)
    const res = await s.api('PUT', '/api/v1/rules', {
      ruleId,
      name: 'Temp renamed',
      description: 'orig',
      metadata: [{ key: { name: 'a' }, stringValue: '1' }],
      versionNotes: 'raise threshold',
      conditions: [
        {
          ruleConditionId: c0.ruleConditionId,
          expression: pressureCondition(20).expression,
          actions: [{ ruleActionId: c0.actions[0].ruleActionId, ...pressureCondition().actions[0] }],
        },
        {
          ruleConditionId: c1.ruleConditionId,
          expression: calculatedCondition().expression,
          actions: [
            { ruleActionId: c1.actions[0].ruleActionId, ...calculatedCondition().actions[0] },
            { ruleActionId: c1.actions[1].ruleActionId, ...calculatedCondition().actions[1] },
            { actionType: 'WEBHOOK', configuration: { webhook: { webhookId: 'wh-2' } } },
          ],
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ruleId });
    const v2 = await getRule(ruleId);
    expect(v2.name).toBe('Temp renamed');
    expect(v2.ruleVersion).toMatchObject({
      version: '2',
      versionNotes: 'raise threshold',
      generatedChangeMessage: 'Updated name; changed 1 condition; added 1 action',
    });
    expect(v2.currentVersionId).toBe(v2.ruleVersion.ruleVersionId);
    expect(v2.currentVersionId).not.toBe(v1.currentVersionId);
    expect(v2.createdDate).toBe(v1.createdDate);
    expect(parseTimestamp(v2.modifiedDate)!).toBeGreaterThan(parseTimestamp(v1.modifiedDate)!); // by instant, not text (.123Z sorts after .123456Z)

    // ids survive; version ids change only where something changed
    const [n0, n1] = v2.conditions;
    expect(n0.ruleConditionId).toBe(c0.ruleConditionId);
    expect(n0.ruleConditionVersionId).not.toBe(c0.ruleConditionVersionId);
    expect(n0.expression.singleChannelComparison.double).toBe(20);
    expect(n0.createdDate).toBe(c0.createdDate);
    expect(parseTimestamp(n0.modifiedDate)!).toBeGreaterThan(parseTimestamp(c0.modifiedDate)!); // by instant, not text (.123Z sorts after .123456Z)
    expect(n0.actions[0].ruleActionId).toBe(c0.actions[0].ruleActionId);
    expect(n0.actions[0].ruleActionVersionId).toBe(c0.actions[0].ruleActionVersionId);
    expect(n1.ruleConditionId).toBe(c1.ruleConditionId);
    expect(n1.ruleConditionVersionId).not.toBe(c1.ruleConditionVersionId); // its actions changed
    expect(n1.actions.slice(0, 2)).toEqual(c1.actions);
    expect(n1.actions[2]).toMatchObject({
      actionType: 'WEBHOOK',
      ruleConditionId: c1.ruleConditionId,
      configuration: { webhook: { webhookId: 'wh-2' } },
    });

    // an identical request changes nothing: no new version
    expect((await s.api('PUT', '/api/v1/rules', restate(v2, { versionNotes: 'no-op' }))).status).toBe(200);
    const unchanged = await getRule(ruleId);
    expect(unchanged.ruleVersion.version).toBe('2');
    expect(unchanged.modifiedDate).toBe(v2.modifiedDate);

    // full replacement: omitted fields are cleared; conditions not listed are removed; actions changed in place
    const v3res = await s.api('PUT', '/api/v1/rules', {
      ruleId,
      name: 'Temp renamed',
      conditions: [
        {
          ruleConditionId: c0.ruleConditionId,
          expression: pressureCondition(20).expression,
          actions: [
            {
              ruleActionId: c0.actions[0].ruleActionId,
              actionType: 'NOTIFICATION',
              configuration: { notification: { recipientUserIds: ['u-3'] } },
            },
          ],
        },
      ],
    });
    expect(v3res.status, JSON.stringify(v3res.body)).toBe(200);
    const v3 = await getRule(ruleId);
    expect(v3).toMatchObject({ description: '', metadata: [] });
    expect(v3.conditions).toHaveLength(1);
    expect(v3.conditions[0].actions[0]).toMatchObject({ ruleActionId: c0.actions[0].ruleActionId, actionType: 'NOTIFICATION' });
    expect(v3.conditions[0].actions[0].ruleActionVersionId).not.toBe(c0.actions[0].ruleActionVersionId);
    expect(v3.ruleVersion).toMatchObject({
      version: '3',
      versionNotes: '',
      generatedChangeMessage: 'Updated description, metadata; removed 1 condition; changed 1 action',
    });

    // reordering and adding conditions
    const v4res = await s.api('PUT', '/api/v1/rules', {
      ruleId,
      name: 'Temp renamed',
      conditions: [
        pressureCondition(1),
        pressureCondition(2),
        {
          ruleConditionId: c0.ruleConditionId,
          expression: v3.conditions[0].expression,
          actions: [
            {
              ruleActionId: c0.actions[0].ruleActionId,
              actionType: 'NOTIFICATION',
              configuration: { notification: { recipientUserIds: ['u-3'] } },
            },
          ],
        },
      ],
    });
    expect(v4res.status).toBe(200);
    const v4 = await getRule(ruleId);
    expect(v4.conditions.map((c: any) => c.expression.singleChannelComparison.double)).toEqual([1, 2, 20]);
    expect(v4.ruleVersion.generatedChangeMessage).toBe('Added 2 conditions');

    const history = await versions(ruleId);
    expect(history.map((v) => v.version)).toEqual(['4', '3', '2', '1']);
    expect(history[3]).toMatchObject({ generatedChangeMessage: 'Created rule with 2 conditions and 3 actions', versionNotes: '' });
    expect(Object.keys(history[0]).sort()).toEqual(
      [
        'ruleId',
        'ruleVersionId',
        'version',
        'createdDate',
        'createdByUserId',
        'versionNotes',
        'generatedChangeMessage',
        'deletedDate',
        'archivedDate',
        'isArchived',
      ].sort(),
    );
  });

  it('rejects ids that are not part of the rule, and an unknown rule_id is NOT_FOUND', async () => {
    const ruleId = await createRule(ruleBody());
    const other = await getRule(await createRule(ruleBody()));
    expectViolation(
      await s.api(
        'PUT',
        '/api/v1/rules',
        ruleBody({ ruleId, conditions: [{ ...pressureCondition(), ruleConditionId: other.conditions[0].ruleConditionId }] }),
      ),
      'conditions[0].rule_condition_id',
    );
    const mine = await getRule(ruleId);
    expectViolation(
      await s.api(
        'PUT',
        '/api/v1/rules',
        ruleBody({
          ruleId,
          conditions: [
            {
              ...pressureCondition(),
              ruleConditionId: mine.conditions[0].ruleConditionId,
              actions: [{ ...pressureCondition().actions[0], ruleActionId: other.conditions[0].actions[0].ruleActionId }],
            },
          ],
        }),
      ),
      'conditions[0].actions[0].rule_action_id',
    );
    expectViolation(
      await s.api(
        'PUT',
        '/api/v1/rules',
        ruleBody({
          ruleId,
          conditions: [
            { ...pressureCondition(), ruleConditionId: mine.conditions[0].ruleConditionId },
            { ...pressureCondition(), ruleConditionId: mine.conditions[0].ruleConditionId },
          ],
        }),
      ),
      'conditions[1].rule_condition_id',
    );
    expect((await getRule(ruleId)).ruleVersion.version).toBe('1'); // nothing was written
    expectNotFound(await s.api('PUT', '/api/v1/rules', ruleBody({ ruleId: 'no-such-rule' })), /no-such-rule/);
  });

  it('creates a rule when neither rule_id nor client_key names one', async () => {
    const res = await s.api('PUT', '/api/v1/rules', ruleBody({ name: 'via put' }));
    expect(res.status).toBe(200);
    const rule = await getRule(res.body.ruleId);
    expect(rule).toMatchObject({ name: 'via put', clientKey: '' });
    expect(rule.ruleVersion.version).toBe('1');
  });

  it('archives and unarchives through is_archived without making a version (archive is state)', async () => {
    const ruleId = await createRule(ruleBody({ name: 'arch' }));
    const before = await getRule(ruleId);
    expect((await s.api('PUT', '/api/v1/rules', restate(before, { isArchived: true }))).status).toBe(200);
    const archived = await getRule(ruleId);
    expect(archived.isArchived).toBe(true);
    expect(archived.archivedDate).toMatch(RFC3339);
    expect(archived.ruleVersion).toMatchObject({ version: '1', isArchived: true, archivedDate: archived.archivedDate });
    expect(parseTimestamp(archived.modifiedDate)!).toBeGreaterThan(parseTimestamp(before.modifiedDate)!); // by instant, not text (.123Z sorts after .123456Z)
    await s.api('PUT', '/api/v1/rules', restate(before, { isArchived: false }));
    const back = await getRule(ruleId);
    expect(back.isArchived).toBe(false);
    expect(back.ruleVersion.version).toBe('1');
    // a real change while archived makes a version as usual
    await s.api('PUT', '/api/v1/rules', restate(before, { name: 'arch 2' }));
    expect((await getRule(ruleId)).ruleVersion).toMatchObject({ version: '2', generatedChangeMessage: 'Updated name' });
  });
});

describe('rule versions', () => {
  it('GetRuleVersion returns the rule as of that version (a stored snapshot); BatchGetRuleVersions several', async () => {
    const ruleId = await createRule(ruleBody({ name: 'snap v1', clientKey: uniq('snap') }));
    const v1 = await getRule(ruleId);
    await s.api('PUT', '/api/v1/rules', { ruleId, name: 'snap v2', conditions: [pressureCondition(99), pressureCondition(100)] });
    const v2 = await getRule(ruleId);

    const old = await s.api('GET', `/api/v1/rules:version?rule_version_id=${v1.currentVersionId}`);
    expect(old.status).toBe(200);
    expect(old.body.rule).toEqual(v1);
    expect(old.body.rule.name).toBe('snap v1');
    expect(old.body.rule.ruleVersion.version).toBe('1');
    const current = await s.api('GET', `/api/v1/rules:version?ruleVersionId=${v2.currentVersionId}`);
    expect(current.body.rule).toEqual(v2);

    const batch = await s.api('POST', '/api/v1/rules:batchGetVersions', { ruleVersionIds: [v2.currentVersionId, v1.currentVersionId] });
    expect(batch.status).toBe(200);
    expect(batch.body.rules.map((r: any) => r.name)).toEqual(['snap v2', 'snap v1']);

    expectNotFound(await s.api('GET', '/api/v1/rules:version?rule_version_id=nope'), /nope/);
    expectNotFound(
      await s.api('POST', '/api/v1/rules:batchGetVersions', { ruleVersionIds: [v1.currentVersionId, 'missing-v'] }),
      /missing-v/,
    );
    expectViolation(await s.api('GET', '/api/v1/rules:version'), 'rule_version_id');
  });

  it('ListRuleVersions pages newest first', async () => {
    const ruleId = await createRule(ruleBody({ name: 'n0' }));
    for (let i = 1; i <= 4; i++) await s.api('PUT', '/api/v1/rules', ruleBody({ ruleId, name: `n${i}` }));
    const seen: string[] = [];
    let token = '';
    do {
      const res = await s.api('GET', `/api/v1/rules/${ruleId}/versions?page_size=2${token ? `&page_token=${token}` : ''}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(...res.body.ruleVersions.map((v: any) => v.version));
      token = res.body.nextPageToken;
    } while (token);
    expect(seen).toEqual(['5', '4', '3', '2', '1']);
    expectNotFound(await s.api('GET', '/api/v1/rules/unknown-rule/versions'), /unknown-rule/);
  });
});

describe('GetRule / BatchGetRules', () => {
  it('gets by client_key, prefers rule_id when both are given, and needs one of them', async () => {
    const keyA = uniq('a');
    const a = await createRule(ruleBody({ clientKey: keyA }));
    const b = await createRule(ruleBody());
    expect((await s.api('GET', `/api/v1/rules?client_key=${keyA}`)).body.rule.ruleId).toBe(a);
    expect((await s.api('GET', `/api/v1/rules?rule_id=${b}&client_key=${keyA}`)).body.rule.ruleId).toBe(b);
    expectViolation(await s.api('GET', '/api/v1/rules'), 'rule_id');
    expectNotFound(await s.api('GET', '/api/v1/rules?rule_id=zzz'), /zzz/);
    expectNotFound(await s.api('GET', '/api/v1/rules?client_key=no-key'), /no-key/);
  });

  it('uses both lists, returns each rule once, and fails NOT_FOUND naming a missing id or key', async () => {
    const key = uniq('bk');
    const a = await createRule(ruleBody());
    const b = await createRule(ruleBody({ clientKey: key }));
    const c = await createRule(ruleBody());
    const res = await s.api('POST', '/api/v1/rules:batchGet', { ruleIds: [a, b, a], clientKeys: [key] });
    expect(res.status).toBe(200);
    expect(res.body.rules.map((r: any) => r.ruleId)).toEqual([a, b]);
    expect(Object.keys(res.body.rules[0]).sort()).toEqual(RULE_KEYS);
    const both = await s.api('POST', '/api/v1/rules:batchGet', { rule_ids: [c], client_keys: [key] });
    expect(both.body.rules.map((r: any) => r.ruleId)).toEqual([c, b]);

    const missingId = await s.api('POST', '/api/v1/rules:batchGet', { ruleIds: [a, 'ghost-id'], clientKeys: [key] });
    expectNotFound(missingId, /ghost-id/);
    expect(missingId.body.message).not.toContain(a);
    const missingKey = await s.api('POST', '/api/v1/rules:batchGet', { ruleIds: [a], clientKeys: [key, 'ghost-key'] });
    expectNotFound(missingKey, /client_key 'ghost-key'/);
    expect((await s.api('POST', '/api/v1/rules:batchGet', {})).body).toEqual({ rules: [] });
  });
});

describe('ListRules', () => {
  it('orders by created_date desc by default, accepts created_date / modified_date, and pages', async () => {
    const s2 = await startTestServer();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await s2.api('POST', '/api/v1/rules', { update: ruleBody({ name: `r${i}` }) });
        ids.push(res.body.ruleId);
      }
      // touch the oldest so it becomes the most recently modified
      await s2.api('PUT', '/api/v1/rules', ruleBody({ ruleId: ids[0], name: 'r0 edited' }));
      const all = async (query: string) => {
        const out: string[] = [];
        let token = '';
        do {
          const res = await s2.api('GET', `/api/v1/rules:list?page_size=3${query}${token ? `&page_token=${token}` : ''}`);
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(Object.keys(res.body).sort()).toEqual(['nextPageToken', 'rules']);
          out.push(...res.body.rules.map((r: any) => r.ruleId));
          token = res.body.nextPageToken;
        } while (token);
        return out;
      };
      expect(await all('')).toEqual([...ids].reverse());
      expect(await all('&order_by=created_date')).toEqual(ids);
      expect(await all(`&order_by=${encodeURIComponent('modified_date desc')}`)).toEqual([ids[0], ...ids.slice(1).reverse()]);
      const res = await s2.api('GET', '/api/v1/rules:list?order_by=name');
      expectViolation(res, 'order_by');
      const first = await s2.api('GET', '/api/v1/rules:list');
      expect(first.body.rules).toHaveLength(7);
      expect(first.body.nextPageToken).toBe('');
    } finally {
      await s2.close();
    }
  });
});

describe('archive / unarchive', () => {
  it('archive by id or client key returns {} and sets the archived state; batches use both lists atomically', async () => {
    const key = uniq('ar');
    const a = await createRule(ruleBody());
    const b = await createRule(ruleBody({ clientKey: key }));
    const c = await createRule(ruleBody());

    const res = await s.api('POST', '/api/v1/rules/archive', { ruleId: a });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const archived = await getRule(a);
    expect(archived).toMatchObject({ isArchived: true, archivedDate: expect.stringMatching(RFC3339) });
    expect(archived.ruleVersion.isArchived).toBe(true);
    // Delete and archive are one concept on the platform: deletedDate is set with the archive, on the version too.
    expect(archived.deletedDate).toBe(archived.archivedDate);
    expect(archived.ruleVersion.deletedDate).toBe(archived.archivedDate);
    expect((await versions(a)).map((v) => [v.version, v.isArchived])).toEqual([['1', true]]); // no version for an archive
    expect((await s.api('POST', '/api/v1/rules/unarchive', { rule_id: a })).body).toEqual({});
    expect(await getRule(a)).toMatchObject({ deletedDate: null, archivedDate: null, ruleVersion: { deletedDate: null } });
    expect((await getRule(a)).isArchived).toBe(false);

    expect((await s.api('POST', '/api/v1/rules/archive', { clientKey: key })).status).toBe(200);
    expect((await getRule(b)).isArchived).toBe(true);
    expect((await s.api('POST', '/api/v1/rules/unarchive', { clientKey: key })).status).toBe(200);
    expect((await getRule(b)).isArchived).toBe(false);

    // atomic: one missing key fails the batch and archives nothing
    expectNotFound(await s.api('POST', '/api/v1/rules/batchArchive', { ruleIds: [a, c], clientKeys: ['nope-key'] }), /nope-key/);
    expect((await getRule(a)).isArchived).toBe(false);
    expect((await s.api('POST', '/api/v1/rules/batchArchive', { ruleIds: [a, c], clientKeys: [key] })).body).toEqual({});
    for (const id of [a, b, c]) expect((await getRule(id)).isArchived).toBe(true);
    // archived rules are still listed (clients filter them out themselves)
    const listed = (await s.api('GET', '/api/v1/rules:list?page_size=1000')).body.rules.map((r: any) => r.ruleId);
    expect(listed).toEqual(expect.arrayContaining([a, b, c]));
    expect((await s.api('POST', '/api/v1/rules/batchUnarchive', { ruleIds: [a], clientKeys: [key] })).body).toEqual({});
    expect([(await getRule(a)).isArchived, (await getRule(b)).isArchived, (await getRule(c)).isArchived]).toEqual([false, false, true]);

    expectViolation(await s.api('POST', '/api/v1/rules/archive', {}), 'rule_id');
    expectNotFound(await s.api('POST', '/api/v1/rules/archive', { ruleId: 'nope' }), /nope/);
  });

  it('the deprecated delete/undelete routes archive and unarchive', async () => {
    const a = await createRule(ruleBody());
    expect((await s.api('POST', '/api/v1/rules/delete', { ruleId: a })).body).toEqual({});
    expect((await getRule(a)).isArchived).toBe(true);
    expect((await s.api('POST', '/api/v1/rules/undelete', { ruleId: a })).body).toEqual({});
    expect((await getRule(a)).isArchived).toBe(false);
    expect((await s.api('POST', '/api/v1/rules/batchDelete', { ruleIds: [a] })).body).toEqual({});
    expect((await getRule(a)).isArchived).toBe(true);
    expect((await s.api('POST', '/api/v1/rules/batchUndelete', { ruleIds: [a] })).body).toEqual({});
    expect((await getRule(a)).isArchived).toBe(false);
  });
});

describe('routes: literal segments win over {rule_id}', () => {
  it('matches /rules/archive and friends to their own operations', () => {
    const name = (method: string, path: string) => {
      const m = matchRoute(method, path);
      return m.kind === 'found' ? m.route.name : m.kind;
    };
    expect(name('POST', '/api/v1/rules/archive')).toBe('ArchiveRule');
    expect(name('POST', '/api/v1/rules/batchUnarchive')).toBe('BatchUnarchiveRules');
    expect(name('GET', '/api/v1/rules/archive/versions')).toBe('ListRuleVersions');
    expect(name('GET', '/api/v1/rules:list')).toBe('ListRules');
    expect(name('GET', '/api/v1/rules:version')).toBe('GetRuleVersion');
    expect(name('GET', '/api/v1/rules')).toBe('GetRule');
    expect(name('POST', '/api/v1/rules')).toBe('CreateRule');
    expect(name('PUT', '/api/v1/rules')).toBe('UpdateRule');
    expect(name('GET', '/api/v1/rules/archive')).toBe('method-not-allowed');
  });

  it('over HTTP: POST /rules/archive archives; GET /rules/archive/versions treats "archive" as a rule id', async () => {
    const a = await createRule(ruleBody());
    expect((await s.api('POST', '/api/v1/rules/archive', { ruleId: a })).body).toEqual({});
    const res = await s.api('GET', '/api/v1/rules/archive/versions');
    expectNotFound(res, /rule not found: archive/);
    const wrongMethod = await s.api('GET', '/api/v1/rules/archive');
    expect(wrongMethod.status).toBe(501);
    expect(wrongMethod.body).toMatchObject({ code: 12, message: 'Method Not Allowed' });
  });
});

describe('organization isolation', () => {
  it("another organization's rules are NOT_FOUND everywhere and never listed", async () => {
    const key = uniq('iso');
    const ruleId = await createRule(ruleBody({ clientKey: key }));
    const versionId = (await getRule(ruleId)).currentVersionId;
    const other = (method: string, path: string, body?: unknown) => s.api(method, path, body, otherToken);
    expectNotFound(await other('GET', `/api/v1/rules?rule_id=${ruleId}`));
    expectNotFound(await other('GET', `/api/v1/rules?client_key=${key}`));
    expectNotFound(await other('POST', '/api/v1/rules:batchGet', { ruleIds: [ruleId] }));
    expectNotFound(await other('PUT', '/api/v1/rules', ruleBody({ ruleId })));
    expectNotFound(await other('POST', '/api/v1/rules/archive', { ruleId }));
    expectNotFound(await other('POST', '/api/v1/rules/batchArchive', { clientKeys: [key] }));
    expectNotFound(await other('GET', `/api/v1/rules/${ruleId}/versions`));
    expectNotFound(await other('GET', `/api/v1/rules:version?rule_version_id=${versionId}`));
    expectNotFound(await other('POST', '/api/v1/rules:batchGetVersions', { ruleVersionIds: [versionId] }));
    const listed = (await other('GET', '/api/v1/rules:list?page_size=1000')).body.rules.map((r: any) => r.ruleId);
    expect(listed).not.toContain(ruleId);
    // the other org's UpdateRule with the same client key creates its own rule
    const own = await other('PUT', '/api/v1/rules', ruleBody({ clientKey: key }));
    expect(own.status).toBe(200);
    expect(own.body.ruleId).not.toBe(ruleId);
    expect((await getRule(ruleId)).isArchived).toBe(false);
  });
});

describe('BatchUpdateRules', () => {
  it('validate_only checks every rule and saves nothing', async () => {
    const key = uniq('bu');
    const existing = await createRule(ruleBody({ clientKey: key, name: 'existing' }));
    const before = s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM rules')!.n;
    const res = await s.api('PUT', '/api/v1/rules:batchUpdate', {
      validateOnly: true,
      rules: [ruleBody({ name: 'new one' }), ruleBody({ clientKey: key, name: 'existing renamed' })],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      success: true,
      rulesCreatedCount: 1,
      rulesUpdatedCount: 1,
      validateOnly: true,
      validationResults: [
        { ruleId: '', clientKey: '', assetExpressionValidationResults: [], ruleName: 'new one' },
        { ruleId: existing, clientKey: key, assetExpressionValidationResults: [], ruleName: 'existing renamed' },
      ],
      createdRuleIdentifiers: [],
    });
    expect(s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM rules')!.n).toBe(before);
    expect((await getRule(existing)).name).toBe('existing');
  });

  it('saves all rules or none, reporting each failure', async () => {
    const key = uniq('bu2');
    const newKey = uniq('bu3');
    const existing = await createRule(ruleBody({ clientKey: key, name: 'e' }));
    const before = s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM rules')!.n;
    const failed = await s.api('PUT', '/api/v1/rules:batchUpdate', {
      rules: [ruleBody({ name: 'ok' }), ruleBody({ ruleId: 'missing-rule', name: 'bad' }), ruleBody({ clientKey: key, name: 'e2' })],
    });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({
      success: false,
      rulesCreatedCount: 0,
      rulesUpdatedCount: 0,
      validateOnly: false,
      createdRuleIdentifiers: [],
    });
    expect(failed.body.validationResults.map((v: any) => v.error ?? null)).toEqual([null, expect.stringMatching(/missing-rule/), null]);
    expect(s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM rules')!.n).toBe(before);
    expect((await getRule(existing)).name).toBe('e');

    const ok = await s.api('PUT', '/api/v1/rules:batchUpdate', {
      rules: [ruleBody({ name: 'fresh', clientKey: newKey }), ruleBody({ clientKey: key, name: 'e3' })],
    });
    expect(ok.body).toMatchObject({ success: true, rulesCreatedCount: 1, rulesUpdatedCount: 1, validateOnly: false });
    const created = ok.body.createdRuleIdentifiers[0];
    expect(created).toEqual({ ruleId: expect.stringMatching(UUID), name: 'fresh', clientKey: newKey });
    expect((await getRule(created.ruleId)).name).toBe('fresh');
    expect((await getRule(existing)).name).toBe('e3');
    expectViolation(await s.api('PUT', '/api/v1/rules:batchUpdate', { rules: [{ conditions: [] }] }), 'rules[0].name');
  });
});
