import { describe, expect, test } from 'vitest';
import { createRequestOf, emptyDraft, idOf } from './createAnnotation';

const runs = new Map([['run-1', 'Bench run 030']]);
const channels = new Map([['ch-1', 'battery.voltage']]);

describe('create annotation request', () => {
  test('names resolve to ids; lists split; metadata keeps types; phase sends no state', () => {
    const d = {
      ...emptyDraft(new Date('2026-11-01T00:01:00Z')),
      name: ' Spike ',
      run: 'Bench run 030',
      assets: 'Bench-A, Bench-B',
      channels: 'battery.voltage',
      tags: 'a, b',
      metadata: 'severity=3\nconfirmed=true\nnote=by hand',
      assigneeId: 'u-1',
    };
    expect(createRequestOf(d, runs, channels)).toEqual({
      name: 'Spike',
      startTime: '2026-11-01T00:00:00Z',
      endTime: '2026-11-01T00:01:00Z',
      annotationType: 'ANNOTATION_TYPE_DATA_REVIEW',
      state: 'ANNOTATION_STATE_OPEN',
      assignToUserId: 'u-1',
      runId: 'run-1',
      assets: ['Bench-A', 'Bench-B'],
      linkedChannels: [{ channel: { channelId: 'ch-1' } }],
      tags: ['a', 'b'],
      metadata: [
        { key: { name: 'severity', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: 3 },
        { key: { name: 'confirmed', type: 'METADATA_KEY_TYPE_BOOLEAN' }, booleanValue: true },
        { key: { name: 'note', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'by hand' },
      ],
    });
    const phase = createRequestOf({ ...d, type: 'ANNOTATION_TYPE_PHASE' }, runs, channels);
    expect(phase).not.toHaveProperty('state');
  });

  test('nothing associated: no run, assets or channels are sent (the engine says what is missing)', () => {
    const r = createRequestOf({ ...emptyDraft(), name: 'x' }, runs, channels);
    expect(r).not.toHaveProperty('runId');
    expect(r).not.toHaveProperty('assets');
    expect(r).not.toHaveProperty('linkedChannels');
  });

  test('idOf accepts an id or a name', () => {
    expect(idOf('run-1', runs)).toBe('run-1');
    expect(idOf('Bench run 030', runs)).toBe('run-1');
    expect(idOf('nope', runs)).toBeUndefined();
  });
});
