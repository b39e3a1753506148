// SavedSearchService over real HTTP: create / get / update by mask / list /
// delete / batch delete, exact JSON shapes, lossless properties, error paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/testServer';
import { violationOf as violation, UUID, RFC3339 as TS } from '../support/assertions';

let server: TestServer;
let otherOrgToken: string;
let teammateToken: string;

beforeAll(async () => {
  server = await startTestServer();
  otherOrgToken = server.newToken('x@y', 'Other Org');
  teammateToken = server.newToken('teammate@outpost.local');
});
afterAll(async () => server?.close());

const REPEATED = [
  'assetItems',
  'userItems',
  'tagItems',
  'annotationItems',
  'runItems',
  'reportTemplateItems',
  'metadataItems',
  'templateItems',
];

const FULL_SNAKE = {
  overview_mode: 'annotations',
  search_term: 'pump pressure',
  from_date_time: '2025-03-01T10:00:00+02:00',
  to_date_time: '2025-03-02T00:00:00.123456Z',
  asset_items: [
    { id: 'a1', name: 'Pump 1' },
    { id: 'a2', name: 'Pump 2' },
  ],
  user_items: [{ id: 'u1', name: 'alice@example.com' }],
  tag_items: [{ id: 't1', name: 'hot' }],
  annotation_items: [{ id: 'n1', name: 'Spike' }],
  run_items: [{ id: 'r1', name: 'Run 7' }],
  report_template_items: [{ id: 'rt1', name: 'Weekly' }],
  show_advanced_filters: false,
  include_archived: true,
  order_by: 'created_date desc',
  metadata_items: [
    { key: 'site', string_value: 'Lab A' },
    { key: 'threshold', number_value: 1.5 },
    { key: 'critical', boolean_value: false },
    { key: 'empty-string', string_value: '' },
    { key: 'zero', number_value: 0 },
    { key: 'unset' },
  ],
  duration: '3600s',
  // The spec's template items carry a kind (kept as given; absent = unknown, an empty string).
  template_items: [
    { id: 'tpl1', name: 'Template 1', kind: 'REPORT_TEMPLATE' },
    { id: 'tpl2', name: 'No kind' },
  ],
  report_type: 'REPORT_TYPE_TEST',
};

const FULL_WIRE = {
  overviewMode: 'annotations',
  searchTerm: 'pump pressure',
  fromDateTime: '2025-03-01T08:00:00Z',
  toDateTime: '2025-03-02T00:00:00.123456Z',
  assetItems: [
    { id: 'a1', name: 'Pump 1' },
    { id: 'a2', name: 'Pump 2' },
  ],
  userItems: [{ id: 'u1', name: 'alice@example.com' }],
  tagItems: [{ id: 't1', name: 'hot' }],
  annotationItems: [{ id: 'n1', name: 'Spike' }],
  runItems: [{ id: 'r1', name: 'Run 7' }],
  reportTemplateItems: [{ id: 'rt1', name: 'Weekly' }],
  showAdvancedFilters: false,
  includeArchived: true,
  orderBy: 'created_date desc',
  metadataItems: [
    { key: 'site', stringValue: 'Lab A' },
    { key: 'threshold', numberValue: 1.5 },
    { key: 'critical', booleanValue: false },
    { key: 'empty-string', stringValue: '' },
    { key: 'zero', numberValue: 0 },
    { key: 'unset' },
  ],
  duration: '3600s',
  templateItems: [
    { id: 'tpl1', name: 'Template 1', kind: 'REPORT_TEMPLATE' },
    { id: 'tpl2', name: 'No kind', kind: '' },
  ],
  reportType: 'REPORT_TYPE_TEST',
};

async function create(name: string, properties: unknown = { overview_mode: 'runs' }, token?: string) {
  const res = await server.api('POST', '/api/v1/saved_searches', { name, properties }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.savedSearch;
}

describe('CreateSavedSearch / GetSavedSearch', () => {
  it('stores every property losslessly (snake_case input) and returns the exact shape', async () => {
    const res = await server.api('POST', '/api/v1/saved_searches', { name: 'Pumps', properties: FULL_SNAKE });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['savedSearch']);
    const s = res.body.savedSearch;
    expect(s).toEqual({
      savedSearchId: expect.stringMatching(UUID),
      organizationId: expect.stringMatching(UUID),
      name: 'Pumps',
      properties: FULL_WIRE,
      createdByUserId: expect.stringMatching(UUID),
      modifiedByUserId: s.createdByUserId,
      createdDate: expect.stringMatching(TS),
      modifiedDate: s.createdDate,
    });
    expect(Object.keys(s)).toEqual([
      'savedSearchId',
      'organizationId',
      'name',
      'properties',
      'createdByUserId',
      'modifiedByUserId',
      'createdDate',
      'modifiedDate',
    ]);
    // Oneof members: only the set one appears.
    expect(Object.keys(s.properties.metadataItems[5])).toEqual(['key']);

    const got = await server.api('GET', `/api/v1/saved_searches/${s.savedSearchId}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ savedSearch: s });
  });

  it('accepts lowerCamelCase input, treats null as unset, and omits unset optional properties', async () => {
    const s = await create('Minimal', {
      overviewMode: 'runs',
      searchTerm: null,
      assetItems: [{ id: 'a1', name: 'Pump 1' }],
      includeArchived: false,
      metadataItems: [
        { key: 'n', numberValue: '2.25' },
        { key: 'b', booleanValue: 'true' },
      ],
    });
    expect(s.properties).toEqual({
      overviewMode: 'runs',
      assetItems: [{ id: 'a1', name: 'Pump 1' }],
      userItems: [],
      tagItems: [],
      annotationItems: [],
      runItems: [],
      reportTemplateItems: [],
      includeArchived: false,
      metadataItems: [
        { key: 'n', numberValue: 2.25 },
        { key: 'b', booleanValue: true },
      ],
      templateItems: [],
    });
    for (const k of ['searchTerm', 'fromDateTime', 'toDateTime', 'showAdvancedFilters', 'orderBy', 'duration', 'reportType'])
      expect(s.properties).not.toHaveProperty(k);
    for (const k of REPEATED) expect(Array.isArray(s.properties[k])).toBe(true);
  });

  it('round-trips non-finite numbers and empty optional strings as set values', async () => {
    const s = await create('Edge', {
      overview_mode: 'x',
      search_term: '',
      report_type: '',
      metadata_items: [
        { key: 'nan', number_value: 'NaN' },
        { key: 'inf', number_value: 'Infinity' },
        { key: 'ninf', number_value: '-Infinity' },
        { key: 'neg', number_value: -1e300 },
      ],
    });
    expect(s.properties.searchTerm).toBe('');
    expect(s.properties.reportType).toBe('');
    expect(s.properties.metadataItems).toEqual([
      { key: 'nan', numberValue: 'NaN' },
      { key: 'inf', numberValue: 'Infinity' },
      { key: 'ninf', numberValue: '-Infinity' },
      { key: 'neg', numberValue: -1e300 },
    ]);
    const got = await server.client.GetSavedSearch({ savedSearchId: s.savedSearchId });
    expect(got.savedSearch).toEqual(s);
  });

  it('allows duplicate names (ids identify saved searches)', async () => {
    const a = await create('Same name');
    const b = await create('Same name');
    expect(a.savedSearchId).not.toBe(b.savedSearchId);
  });

  it('works through the typed client', async () => {
    const { savedSearch } = await server.client.CreateSavedSearch({
      name: 'Typed',
      properties: { overviewMode: 'runs', tagItems: [{ id: 't', name: 'tag' }] },
    });
    expect(savedSearch.properties.tagItems).toEqual([{ id: 't', name: 'tag' }]);
  });

  it.each([
    ['missing name', { properties: { overview_mode: 'runs' } }, 'name', /required/],
    ['empty name', { name: '', properties: { overview_mode: 'runs' } }, 'name', /empty/],
    ['blank name', { name: '   ', properties: { overview_mode: 'runs' } }, 'name', /blank/],
    ['missing properties', { name: 'n' }, 'properties', /required/],
    ['missing overview_mode', { name: 'n', properties: {} }, 'properties.overview_mode', /required/],
    ['empty overview_mode', { name: 'n', properties: { overview_mode: '' } }, 'properties.overview_mode', /empty/],
    [
      'filter item without id',
      { name: 'n', properties: { overview_mode: 'r', asset_items: [{ name: 'Pump' }] } },
      'properties.asset_items[0].id',
      /required/,
    ],
    [
      'filter item without name',
      { name: 'n', properties: { overview_mode: 'r', template_items: [{ id: 'x' }] } },
      'properties.template_items[0].name',
      /required/,
    ],
    [
      'metadata item without key',
      { name: 'n', properties: { overview_mode: 'r', metadata_items: [{ string_value: 'v' }] } },
      'properties.metadata_items[0].key',
      /required/,
    ],
    [
      'two oneof members',
      { name: 'n', properties: { overview_mode: 'r', metadata_items: [{ key: 'k', string_value: 'v', number_value: 1 }] } },
      'properties.metadata_items[0]',
      /oneof/,
    ],
    [
      'bad timestamp',
      { name: 'n', properties: { overview_mode: 'r', from_date_time: 'yesterday' } },
      'properties.from_date_time',
      /RFC 3339/,
    ],
    [
      'bad number',
      { name: 'n', properties: { overview_mode: 'r', metadata_items: [{ key: 'k', number_value: 'abc' }] } },
      'properties.metadata_items[0].number_value',
      /not a number/,
    ],
    [
      'wrong type',
      { name: 'n', properties: { overview_mode: 'r', show_advanced_filters: 'maybe' } },
      'properties.show_advanced_filters',
      /./,
    ],
    ['items not a list', { name: 'n', properties: { overview_mode: 'r', run_items: { id: 'x' } } }, 'properties.run_items', /./],
  ])('rejects %s with a BadRequest naming the field', async (_label, body, field, description) => {
    const v = violation(await server.api('POST', '/api/v1/saved_searches', body));
    expect(v.field).toBe(field);
    expect(v.description).toMatch(description);
  });

  it('rejects malformed and non-object bodies', async () => {
    expect(violation(await server.api('POST', '/api/v1/saved_searches', '{"name": ')).field).toBe('body');
    expect(violation(await server.api('POST', '/api/v1/saved_searches', '[1, 2]')).field).toBe('body');
  });

  it("GET of an unknown id or another organization's saved search is NOT_FOUND", async () => {
    const mine = await create('Private');
    const unknown = await server.api('GET', '/api/v1/saved_searches/00000000-0000-0000-0000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(5);
    const other = await server.api('GET', `/api/v1/saved_searches/${mine.savedSearchId}`, undefined, otherOrgToken);
    expect(other.status).toBe(404);
    expect(other.body.message).toContain(mine.savedSearchId);
  });

  it('requires organization_id from a caller in several organizations, and honours it', async () => {
    const multi = server.newToken('multi@outpost.local');
    server.newToken('multi@outpost.local', 'Second Org');
    const res = await server.api('POST', '/api/v1/saved_searches', { name: 'n', properties: { overview_mode: 'r' } }, multi);
    expect(violation(res).field).toBe('organization_id');
    const { body: orgs } = await server.api('GET', '/api/v1/saved_searches?organization_id=not-mine', undefined, multi);
    expect(orgs.code).toBe(5);
  });

  it('requires an API key', async () => {
    const res = await server.api('POST', '/api/v1/saved_searches', { name: 'n', properties: { overview_mode: 'r' } }, null);
    expect(res.status).toBe(401);
  });
});

describe('UpdateSavedSearch', () => {
  const patch = (body: unknown, token?: string) => server.api('PATCH', '/api/v1/saved_searches', body, token);

  it('changes only the name when the mask says name, and records who and when', async () => {
    const s = await create('Before', FULL_SNAKE);
    const res = await patch(
      { saved_search: { saved_search_id: s.savedSearchId, name: 'After', properties: { overview_mode: 'ignored' } }, update_mask: 'name' },
      teammateToken,
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['savedSearch']);
    const u = res.body.savedSearch;
    expect(u).toEqual({ ...s, name: 'After', modifiedByUserId: expect.stringMatching(UUID), modifiedDate: expect.stringMatching(TS) });
    expect(u.modifiedByUserId).not.toBe(s.createdByUserId);
    expect(Date.parse(u.modifiedDate)).toBeGreaterThanOrEqual(Date.parse(s.modifiedDate));
    expect(u.modifiedDate).not.toBe(s.modifiedDate);
  });

  it('replaces single properties named by sub-paths (camelCase or snake_case) and leaves the rest', async () => {
    const s = await create('Sub-paths', FULL_SNAKE);
    const res = await patch({
      savedSearch: {
        savedSearchId: s.savedSearchId,
        properties: { searchTerm: 'valve', runItems: [{ id: 'r9', name: 'Run 9' }], tagItems: [{ id: 'zz', name: 'not in mask' }] },
      },
      updateMask: 'properties.searchTerm,properties.run_items',
    });
    expect(res.status).toBe(200);
    expect(res.body.savedSearch.properties).toEqual({ ...FULL_WIRE, searchTerm: 'valve', runItems: [{ id: 'r9', name: 'Run 9' }] });
    expect(res.body.savedSearch.name).toBe('Sub-paths');
  });

  it('clears an optional property named in the mask but unset in the patch (and empties a repeated one)', async () => {
    const s = await create('Clear', FULL_SNAKE);
    const res = await patch({
      saved_search: { saved_search_id: s.savedSearchId, properties: {} },
      update_mask: 'properties.search_term,properties.fromDateTime,properties.metadata_items,properties.report_type',
    });
    expect(res.status).toBe(200);
    const p = res.body.savedSearch.properties;
    expect(p).not.toHaveProperty('searchTerm');
    expect(p).not.toHaveProperty('fromDateTime');
    expect(p).not.toHaveProperty('reportType');
    expect(p.metadataItems).toEqual([]);
    expect(p.toDateTime).toBe(FULL_WIRE.toDateTime);
    expect(p.templateItems).toEqual(FULL_WIRE.templateItems);
  });

  it('replaces all properties with update_mask properties (unset optionals are dropped)', async () => {
    const s = await create('Replace', FULL_SNAKE);
    const res = await patch({
      saved_search: { saved_search_id: s.savedSearchId, properties: { overview_mode: 'runs', duration: '60s' } },
      update_mask: 'properties',
    });
    expect(res.status).toBe(200);
    expect(res.body.savedSearch.properties).toEqual({
      overviewMode: 'runs',
      assetItems: [],
      userItems: [],
      tagItems: [],
      annotationItems: [],
      runItems: [],
      reportTemplateItems: [],
      metadataItems: [],
      duration: '60s',
      templateItems: [],
    });
    const got = await server.api('GET', `/api/v1/saved_searches/${s.savedSearchId}`);
    expect(got.body.savedSearch).toEqual(res.body.savedSearch);
  });

  it('updates name and properties together', async () => {
    const s = await create('Both');
    const res = await patch({
      saved_search: { saved_search_id: s.savedSearchId, name: 'Both 2', properties: { overview_mode: 'assets' } },
      update_mask: 'name, properties',
    });
    expect(res.body.savedSearch.name).toBe('Both 2');
    expect(res.body.savedSearch.properties.overviewMode).toBe('assets');
  });

  it.each([
    ['missing update_mask', (id: string) => ({ saved_search: { saved_search_id: id, name: 'x' } }), 'update_mask', /required/],
    [
      'empty update_mask',
      (id: string) => ({ saved_search: { saved_search_id: id, name: 'x' }, update_mask: ' , ' }),
      'update_mask',
      /required/,
    ],
    [
      'non-string update_mask',
      (id: string) => ({ saved_search: { saved_search_id: id }, update_mask: ['name'] }),
      'update_mask',
      /comma-separated/,
    ],
    [
      'unknown mask path',
      (id: string) => ({ saved_search: { saved_search_id: id }, update_mask: 'colour' }),
      'update_mask',
      /unknown field 'colour'/,
    ],
    [
      'unknown properties sub-path',
      (id: string) => ({ saved_search: { saved_search_id: id }, update_mask: 'properties.colour' }),
      'update_mask',
      /unknown field 'properties.colour'/,
    ],
    [
      'too deep a sub-path',
      (id: string) => ({ saved_search: { saved_search_id: id }, update_mask: 'properties.asset_items.id' }),
      'update_mask',
      /unknown field/,
    ],
    [
      'immutable mask path',
      (id: string) => ({ saved_search: { saved_search_id: id }, update_mask: 'createdDate' }),
      'update_mask',
      /'created_date' cannot be updated/,
    ],
    [
      'immutable organization_id',
      (id: string) => ({ saved_search: { saved_search_id: id }, update_mask: 'organization_id' }),
      'update_mask',
      /cannot be updated/,
    ],
    [
      'empty name',
      (id: string) => ({ saved_search: { saved_search_id: id, name: '' }, update_mask: 'name' }),
      'saved_search.name',
      /empty/,
    ],
    [
      'name named but absent',
      (id: string) => ({ saved_search: { saved_search_id: id }, update_mask: 'name' }),
      'saved_search.name',
      /empty/,
    ],
    [
      'properties named but absent',
      (id: string) => ({ saved_search: { saved_search_id: id }, update_mask: 'properties' }),
      'saved_search.properties',
      /required/,
    ],
    [
      'properties without overview_mode',
      (id: string) => ({ saved_search: { saved_search_id: id, properties: { search_term: 'x' } }, update_mask: 'properties' }),
      'saved_search.properties.overview_mode',
      /empty/,
    ],
    [
      'overview_mode cleared',
      (id: string) => ({ saved_search: { saved_search_id: id, properties: {} }, update_mask: 'properties.overview_mode' }),
      'saved_search.properties.overview_mode',
      /empty/,
    ],
    [
      'bad property value',
      (id: string) => ({
        saved_search: { saved_search_id: id, properties: { to_date_time: 'soon' } },
        update_mask: 'properties.to_date_time',
      }),
      'saved_search.properties.to_date_time',
      /RFC 3339/,
    ],
    ['missing saved_search', () => ({ update_mask: 'name' }), 'saved_search', /required/],
    ['missing saved_search_id', () => ({ saved_search: { name: 'x' }, update_mask: 'name' }), 'saved_search.saved_search_id', /required/],
  ])('rejects %s', async (_label, body, field, description) => {
    const s = await create('Errors');
    const v = violation(await patch(body(s.savedSearchId)));
    expect(v.field).toBe(field);
    expect(v.description).toMatch(description);
    // Nothing changed.
    expect((await server.api('GET', `/api/v1/saved_searches/${s.savedSearchId}`)).body.savedSearch).toEqual(s);
  });

  it("is NOT_FOUND for an unknown id and for another organization's saved search", async () => {
    const s = await create('Mine');
    const unknown = await patch({ saved_search: { saved_search_id: 'nope', name: 'x' }, update_mask: 'name' });
    expect(unknown.status).toBe(404);
    const other = await patch({ saved_search: { saved_search_id: s.savedSearchId, name: 'stolen' }, update_mask: 'name' }, otherOrgToken);
    expect(other.status).toBe(404);
    expect((await server.api('GET', `/api/v1/saved_searches/${s.savedSearchId}`)).body.savedSearch.name).toBe('Mine');
  });
});

describe('ListSavedSearches', () => {
  let org: TestServer;
  let token: string;
  let otherToken: string;
  const names = ['delta', 'alpha', 'echo', 'charlie', 'bravo'];
  const made: any[] = [];

  beforeAll(async () => {
    org = await startTestServer();
    token = org.token;
    otherToken = org.newToken('x@y', 'Other Org');
    for (const n of names) {
      const res = await org.api('POST', '/api/v1/saved_searches', { name: n, properties: { overview_mode: 'runs' } });
      made.push(res.body.savedSearch);
    }
    await org.api('POST', '/api/v1/saved_searches', { name: 'other org', properties: { overview_mode: 'runs' } }, otherToken);
  });
  afterAll(async () => org?.close());

  async function all(query: string, pageSize: number): Promise<{ items: any[]; pages: number }> {
    const items: any[] = [];
    let pageToken = '';
    let pages = 0;
    do {
      const sep = query ? '&' : '';
      const res = await org.api(
        'GET',
        `/api/v1/saved_searches?${query}${sep}page_size=${pageSize}${pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : ''}`,
        undefined,
        token,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['nextPageToken', 'savedSearches']);
      items.push(...res.body.savedSearches);
      pageToken = res.body.nextPageToken;
      pages++;
    } while (pageToken);
    return { items, pages };
  }

  it("lists the organization's saved searches oldest first by default, with full objects", async () => {
    const res = await org.api('GET', '/api/v1/saved_searches');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ savedSearches: made, nextPageToken: '' });
  });

  it('pages with tokens until the token is empty', async () => {
    const { items, pages } = await all('', 2);
    expect(pages).toBe(3);
    expect(items.map((s) => s.name)).toEqual(names);
  });

  it('orders by name, name desc, modified_date and created_date desc (camelCase accepted)', async () => {
    expect((await all('order_by=name', 2)).items.map((s) => s.name)).toEqual([...names].sort());
    expect((await all('order_by=name%20desc', 3)).items.map((s) => s.name)).toEqual([...names].sort().reverse());
    expect((await all('orderBy=createdDate%20desc', 4)).items.map((s) => s.name)).toEqual([...names].reverse());
    expect((await all('order_by=modified_date', 50)).items.map((s) => s.name)).toEqual(names);
  });

  it('coerces a page size above the maximum and rejects bad paging parameters', async () => {
    expect((await org.api('GET', '/api/v1/saved_searches?page_size=5000')).body.savedSearches).toHaveLength(5);
    expect(violation(await org.api('GET', '/api/v1/saved_searches?page_size=-1')).field).toBe('page_size');
    expect(violation(await org.api('GET', '/api/v1/saved_searches?page_size=abc')).field).toBe('page_size');
    expect(violation(await org.api('GET', '/api/v1/saved_searches?order_by=overview_mode')).field).toBe('order_by');
    expect(violation(await org.api('GET', '/api/v1/saved_searches?page_token=garbage')).field).toBe('page_token');
    const first = await org.api('GET', '/api/v1/saved_searches?page_size=2');
    const mismatch = await org.api(
      'GET',
      `/api/v1/saved_searches?page_size=2&order_by=name&page_token=${encodeURIComponent(first.body.nextPageToken)}`,
    );
    expect(violation(mismatch).field).toBe('page_token');
  });

  it("never shows another organization's saved searches", async () => {
    const res = await org.api('GET', '/api/v1/saved_searches', undefined, otherToken);
    expect(res.body.savedSearches.map((s: any) => s.name)).toEqual(['other org']);
  });
});

describe('DeleteSavedSearch / BatchDeleteSavedSearches', () => {
  it('hard-deletes one saved search: {} then NOT_FOUND', async () => {
    const s = await create('Doomed');
    const res = await server.api('DELETE', `/api/v1/saved_searches/${s.savedSearchId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await server.api('GET', `/api/v1/saved_searches/${s.savedSearchId}`)).status).toBe(404);
    const again = await server.api('DELETE', `/api/v1/saved_searches/${s.savedSearchId}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe(5);
  });

  it("does not delete another organization's saved search", async () => {
    const s = await create('Guarded');
    expect((await server.api('DELETE', `/api/v1/saved_searches/${s.savedSearchId}`, undefined, otherOrgToken)).status).toBe(404);
    expect((await server.api('GET', `/api/v1/saved_searches/${s.savedSearchId}`)).status).toBe(200);
  });

  it('batch-deletes several ids (duplicates tolerated)', async () => {
    const a = await create('Batch A');
    const b = await create('Batch B');
    const res = await server.api('POST', '/api/v1/saved_searches:batchDelete', {
      saved_search_ids: [a.savedSearchId, b.savedSearchId, a.savedSearchId],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await server.api('GET', `/api/v1/saved_searches/${a.savedSearchId}`)).status).toBe(404);
    expect((await server.api('GET', `/api/v1/saved_searches/${b.savedSearchId}`)).status).toBe(404);
  });

  it('is atomic: unknown or foreign ids fail the whole batch, naming them', async () => {
    const a = await create('Keep A');
    const foreign = await create('Foreign', { overview_mode: 'x' }, otherOrgToken);
    const res = await server.api('POST', '/api/v1/saved_searches:batchDelete', {
      savedSearchIds: [a.savedSearchId, 'missing-1', foreign.savedSearchId],
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(5);
    expect(res.body.message).toContain('missing-1');
    expect(res.body.message).toContain(foreign.savedSearchId);
    expect(res.body.message).not.toContain(a.savedSearchId);
    expect((await server.api('GET', `/api/v1/saved_searches/${a.savedSearchId}`)).status).toBe(200);
    expect((await server.api('GET', `/api/v1/saved_searches/${foreign.savedSearchId}`, undefined, otherOrgToken)).status).toBe(200);
  });

  it('rejects more than 1000 ids and a missing id list', async () => {
    const ids = Array.from({ length: 1001 }, (_, i) => `id-${i}`);
    const v = violation(await server.api('POST', '/api/v1/saved_searches:batchDelete', { saved_search_ids: ids }));
    expect(v.field).toBe('saved_search_ids');
    expect(v.description).toMatch(/1000/);
    expect(violation(await server.api('POST', '/api/v1/saved_searches:batchDelete', {})).field).toBe('saved_search_ids');
  });

  it('accepts an empty list as a no-op', async () => {
    const res = await server.api('POST', '/api/v1/saved_searches:batchDelete', { saved_search_ids: [] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
  });
});
