// order_by (AIP-132) parsing, keyset paging that never skips or repeats rows
// when many rows share the sort value, and page tokens that cannot be
// tampered with or replayed with other parameters.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, Code } from '../../src-shared/errors';
import { listPage, type ListParams, type Scope } from '../../src-main/filter/listQuery';
import { normalizeOrderBy, parseOrderBy } from '../../src-main/filter/orderBy';
import { decodePageToken, encodePageToken, fingerprint } from '../../src-main/filter/pageToken';
import { annotationListSpec } from '../../src-main/services/annotations/annotationListSpec';
import { annotationLogListSpec } from '../../src-main/services/annotations/annotationLogListSpec';
import { loadDataset, openFilterTestDb, ORGANIZATION_ID, type AnnotationRowData, type FilterTestDb } from './support/annotationDataset';

const spec = annotationListSpec;
const SECRET = 'paging-test-secret';
const scope: Scope = { sql: 't.organization_id = ?', params: [ORGANIZATION_ID], fingerprint: [ORGANIZATION_ID] };

function invalid(fn: () => unknown, field: string, pattern: RegExp): void {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(Code.INVALID_ARGUMENT);
    expect((err as ApiError).message.startsWith(`${field}: `)).toBe(true);
    expect((err as ApiError).message).toMatch(pattern);
    return;
  }
  throw new Error('expected INVALID_ARGUMENT');
}

describe('order_by (AIP-132)', () => {
  it.each([
    [undefined, 'created_date desc'],
    ['', 'created_date desc'],
    ['   ', 'created_date desc'],
    ['name', 'name'],
    ['name desc', 'name desc'],
    ['name DESC', 'name desc'],
    ['name asc', 'name'],
    ['  name   desc  ,  start_time ', 'name desc,start_time'],
    ['name,start_time desc', 'name,start_time desc'],
    ['createdDate desc', 'created_date desc'],
    ['modified_date,end_time desc,description', 'modified_date,end_time desc,description'],
    ['name\tdesc', 'name desc'],
  ])('%j -> %s', (orderBy, normalized) => {
    expect(normalizeOrderBy(parseOrderBy(spec, orderBy))).toBe(normalized);
  });

  it.each([
    ['name desc asc', /cannot parse 'name desc asc'/],
    ['name descending', /unknown direction 'descending' for 'name'/],
    ['nmae', /cannot order annotations by 'nmae'; allowed fields: created_date, modified_date, start_time, end_time, name, description/],
    ['name,', /cannot parse ''/],
    [',name', /cannot parse ''/],
    ['name,,start_time', /cannot parse ''/],
    ['name, name desc', /field 'name' appears more than once/],
    ['name, createdDate, created_date', /appears more than once/],
    ['tag_name', /cannot order annotations by 'tag_name'/],
    ['metadata["k"]', /cannot order annotations by/],
    ['name;drop table annotations', /cannot parse|cannot order/],
    ['name desc -- comment', /cannot parse/],
  ])('%j is INVALID_ARGUMENT', (orderBy, pattern) => {
    invalid(() => parseOrderBy(spec, orderBy), 'order_by', pattern);
  });

  it('only allows the documented fields of each resource (annotation logs have none)', () => {
    invalid(() => parseOrderBy(annotationLogListSpec, 'name'), 'order_by', /cannot order annotation logs by 'name'/);
  });
});

let t: FilterTestDb;
beforeAll(() => {
  t = openFilterTestDb();
});
afterAll(() => t.close());

const T0 = Date.UTC(2024, 0, 1);

/** Rows whose sort values collide a lot: 3 names, 3 creation times, 2 start times. */
const tiedRowsArb = fc.integer({ min: 0, max: 40 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      fc
        .record({
          name: fc.constantFrom('a', 'b', 'B'),
          created: fc.constantFrom(0, 1, 2),
          start: fc.constantFrom(0, 5),
          state: fc.option(fc.constantFrom(1, 2), { nil: null }),
          tags: fc.uniqueArray(fc.constantFrom('x', 'y'), { maxLength: 2 }),
        })
        .map((r): AnnotationRowData => ({
          id: `row-${String(i).padStart(2, '0')}`,
          name: r.name,
          description: '',
          startMs: T0 + r.start,
          endMs: T0 + r.start,
          createdMs: T0 + r.created,
          modifiedMs: T0,
          runId: null,
          state: r.state,
          annotationType: 1,
          pending: false,
          archivedMs: null,
          createdBy: 'u1',
          conditionVersion: null,
          assignee: '',
          tags: r.tags,
          assetIds: [],
          metadata: {},
        })),
    ),
  ),
);

const orderByArb = fc
  .uniqueArray(fc.constantFrom('name', 'created_date', 'start_time', 'modified_date'), { minLength: 0, maxLength: 3 })
  .chain((fields) => fc.tuple(...fields.map((f) => fc.constantFrom(f, `${f} desc`))))
  .map((terms) => (terms.length ? terms.join(', ') : undefined));

const filterArb = fc.constantFrom(
  undefined,
  "tag_name == 'x'",
  'state != ANNOTATION_STATE_OPEN',
  "name != 'b'",
  "!(tag_name == 'y') || state == null",
);

/** Every page, following next_page_token; fails on a loop. */
function allPages(params: ListParams, pageSize: number): number[][] {
  const pages: number[][] = [];
  let token: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = listPage(t.db, spec, { ...params, pageSize, pageToken: token }, scope, SECRET);
    pages.push(page.keys);
    if (!page.nextPageToken) return pages;
    token = page.nextPageToken;
  }
  throw new Error('paging did not end');
}

describe('keyset paging', () => {
  it('never skips or repeats rows, whatever the ties, order and page size (property)', () => {
    fc.assert(
      fc.property(tiedRowsArb, orderByArb, filterArb, fc.integer({ min: 1, max: 7 }), (rows, orderBy, filter, pageSize) => {
        loadDataset(t.db, rows);
        const everything = listPage(t.db, spec, { orderBy, filter, pageSize: 1000 }, scope, SECRET).keys;
        const pages = allPages({ orderBy, filter }, pageSize);
        expect(pages.flat()).toEqual(everything);
        expect(new Set(everything).size).toBe(everything.length);
        pages.slice(0, -1).forEach((p) => expect(p.length).toBe(pageSize));
        // The single page is itself in the requested order, ties broken by pk in the last term's direction.
        const terms = parseOrderBy(spec, orderBy);
        const byPk = new Map(
          t.db
            .all<{ pk: number; name: string; created_date: number; start_time: number; modified_date: number }>('SELECT * FROM annotations')
            .map((r) => [r.pk, r]),
        );
        const sorted = [...everything].sort((a, b) => {
          const ra = byPk.get(a)! as unknown as Record<string, string | number>;
          const rb = byPk.get(b)! as unknown as Record<string, string | number>;
          for (const term of terms) {
            const x = ra[term.field];
            const y = rb[term.field];
            if (x !== y) return (x < y ? -1 : 1) * (term.desc ? -1 : 1);
          }
          return (a - b) * (terms.length && terms[terms.length - 1].desc ? -1 : 1);
        });
        expect(everything).toEqual(sorted);
      }),
      { numRuns: 150 },
    );
  });

  it('rejects a negative page size and caps a large one', () => {
    loadDataset(t.db, []);
    invalid(() => listPage(t.db, spec, { pageSize: -1 }, scope, SECRET), 'page_size', /must not be negative/);
    expect(listPage(t.db, spec, { pageSize: 5000 }, scope, SECRET).keys).toEqual([]);
  });
});

describe('page tokens', () => {
  let token: string;
  const params: ListParams = { filter: "name != 'zzz'", orderBy: 'name desc', pageSize: 2 };
  beforeAll(() => {
    loadDataset(
      t.db,
      ['a', 'b', 'c', 'd'].map((name, i) => ({
        id: `tok-${i}`,
        name,
        description: '',
        startMs: T0,
        endMs: T0,
        createdMs: T0,
        modifiedMs: T0,
        runId: null,
        state: null,
        annotationType: 1,
        pending: false,
        archivedMs: null,
        createdBy: 'u1',
        conditionVersion: null,
        assignee: '',
        tags: [],
        assetIds: [],
        metadata: {},
      })),
    );
    token = listPage(t.db, spec, params, scope, SECRET).nextPageToken;
    expect(token).not.toBe('');
  });

  const next =
    (p: ListParams, s: Scope = scope, secret = SECRET) =>
    () =>
      listPage(t.db, spec, p, s, secret);

  it('continues with the same parameters', () => {
    expect(listPage(t.db, spec, { ...params, pageToken: token }, scope, SECRET).keys).toHaveLength(2);
  });

  it('continues when only insignificant spacing of order_by or the filter changes', () => {
    expect(
      listPage(t.db, spec, { ...params, orderBy: '  name   DESC ', filter: ` ${params.filter} `, pageToken: token }, scope, SECRET).keys,
    ).toHaveLength(2);
  });

  it.each([
    ['another filter', { ...params, filter: "name != 'yyy'" }],
    ['no filter', { ...params, filter: undefined }],
    ['another order', { ...params, orderBy: 'name' }],
  ])('is INVALID_ARGUMENT with %s', (_, p) => {
    invalid(next({ ...p, pageToken: token }), 'page_token', /does not match the request/);
  });

  it('is INVALID_ARGUMENT in another scope (organization)', () => {
    invalid(next({ ...params, pageToken: token }, { ...scope, fingerprint: ['other-org'] }), 'page_token', /does not match the request/);
  });

  it('is INVALID_ARGUMENT when signed with another secret', () => {
    invalid(next({ ...params, pageToken: token }, scope, 'another-secret'), 'page_token', /invalid page token/);
  });

  it('is INVALID_ARGUMENT when any character is changed', () => {
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '.') continue;
      const tampered = token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
      invalid(next({ ...params, pageToken: tampered }), 'page_token', /page token/);
    }
  });

  it.each(['garbage', '.', 'a.', '.b', 'a.b.c', '%%%.%%%', '\u0000', 'x'.repeat(10_000)])('is INVALID_ARGUMENT for %j', (bad) => {
    invalid(next({ ...params, pageToken: bad }), 'page_token', /page token/);
  });

  it('is INVALID_ARGUMENT for correctly signed but malformed payloads', () => {
    const sign = (payload: string) => {
      const body = Buffer.from(payload).toString('base64url');
      return `${body}.${createHmac('sha256', SECRET).update(body).digest('base64url').slice(0, 22)}`;
    };
    const fp = fingerprint([spec.resource, params.filter, normalizeOrderBy(parseOrderBy(spec, params.orderBy)), ...scope.fingerprint]);
    for (const payload of [
      'null',
      '42',
      '"x"',
      '[]',
      '{',
      JSON.stringify({ v: 2, f: fp, k: ['a', 1] }),
      JSON.stringify({ v: 1, f: fp, k: ['a'] }),
      JSON.stringify({ v: 1, f: fp, k: [1, 1] }),
      JSON.stringify({ v: 1, f: fp, k: ['a', 'b'] }),
      JSON.stringify({ v: 1, f: fp, k: [{}, 1] }),
    ]) {
      invalid(next({ ...params, pageToken: sign(payload) }), 'page_token', /malformed page token/);
    }
  });

  it('round-trips through encode/decode and checks arity', () => {
    const encoded = encodePageToken(SECRET, 'fp', ['x', 1]);
    expect(decodePageToken(SECRET, encoded, 'fp', 2)).toEqual(['x', 1]);
    invalid(() => decodePageToken(SECRET, encoded, 'fp', 3), 'page_token', /malformed page token/);
  });
});
