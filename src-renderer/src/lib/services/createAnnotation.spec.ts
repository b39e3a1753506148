import { describe, expect, test } from 'vitest';
import { checkCreateDraft, createRequestOf, emptyDraft, idOf } from './createAnnotation';

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

  test('what the engine would refuse is said in words before sending', () => {
    expect(checkCreateDraft({ ...emptyDraft(), startTime: 'yesterday' })).toEqual([
      { field: 'name', message: 'Give the annotation a name.' },
      {
        field: 'start_time',
        message: 'The start is not a date and time: write it as 2026-03-01T14:05:00Z (UTC) or with an offset, 2026-03-01T15:05:00+01:00.',
      },
      {
        field: 'assets',
        message: 'Choose a run, an asset or a channel: an annotation belongs to at least one (tags alone are not enough).',
      },
    ]);
    const d = { ...emptyDraft(new Date('2026-11-01T00:01:00Z')), name: 'x', assets: 'Bench-A' };
    expect(checkCreateDraft(d)).toEqual([]);
    expect(checkCreateDraft({ ...d, endTime: '2026-10-31T23:00:00Z' })).toEqual([
      { field: 'end_time', message: 'The end must not be before the start.' },
    ]);
  });
});
