import { describe, expect, test } from 'vitest';
import type { Annotation } from '../../../../src-shared/api/annotations';
import type { MetadataValue } from '../../../../src-shared/api/metadata';
import { annotationFactory, USER_ID, USER_NAME } from '../testing/factories';
import { SharedParts } from './sharedParts';

/** A row as JSON.parse makes it: every part its own copy. */
const parsed = (row: Annotation): Annotation => JSON.parse(JSON.stringify(row)) as Annotation;

const user = { userId: USER_ID, userName: USER_NAME, organizations: [{ organizationId: 'org-1', organizationName: 'Field Team' }] };
const severity = (n: number): MetadataValue => ({
  key: {
    name: 'severity',
    type: 'METADATA_KEY_TYPE_NUMBER',
    archivedDate: null,
    isArchived: false,
    filterFieldType: 'FILTER_FIELD_TYPE_DOUBLE',
  },
  numberValue: n,
  archivedDate: null,
  isArchived: false,
});

describe('SharedParts', () => {
  test('rows keep every value; equal parts of different rows are one object', () => {
    const base = {
      tags: ['needs-review', 'thermal'],
      assignedToUser: user,
      assignedToUserId: USER_ID,
      linkedChannels: [{ channel: { channelId: 'ch-1' } }],
      metadata: [severity(4)],
    } as Partial<Annotation>;
    const [a, b] = annotationFactory.buildList(2, base).map(parsed);
    const c = parsed(annotationFactory.build({ ...base, tags: ['thermal'], metadata: [severity(2)] }));
    const expected = [a, b, c].map(parsed);

    const shared = new SharedParts();
    const rows = [a, b, c].map((row) => shared.annotation(row));

    expect(rows).toEqual(expected);
    expect(rows[0].assignedToUser).toBe(rows[1].assignedToUser);
    expect(rows[0].assignedToUser).toBe(rows[2].assignedToUser);
    expect(rows[0].tags).toBe(rows[1].tags);
    expect(rows[2].tags).not.toBe(rows[0].tags);
    expect(rows[0].linkedChannels).toBe(rows[2].linkedChannels);
    expect(rows[0].assetIds).toBe(rows[1].assetIds);
    expect(rows[0].metadata).toBe(rows[1].metadata);
    expect(rows[2].metadata).not.toBe(rows[0].metadata);
    expect(rows[2].metadata[0].key).not.toBe(rows[0].metadata[0].key); // whole values are shared, not their keys alone
    expect(rows[0].annotationId).not.toBe(rows[1].annotationId);
  });

  test('text gives the first copy of equal strings', () => {
    const shared = new SharedParts();
    const first = ['ANNOTATION_TYPE', 'DATA_REVIEW'].join('_');
    const second = ['ANNOTATION_TYPE_DATA', 'REVIEW'].join('_');
    expect(shared.text(first)).toBe(first);
    expect(shared.text(second)).toBe(first);
    expect(shared.text(undefined)).toBeUndefined();
  });

  test('past its limit a new part stays the row’s own and known parts are still shared', () => {
    const shared = new SharedParts(2);
    const one = shared.part(['one']);
    shared.part(['two']);
    const three = ['three'];
    expect(shared.part(three)).toBe(three);
    expect(shared.part(['three'])).not.toBe(three); // not kept
    expect(shared.part(['one'])).toBe(one);
  });
});
