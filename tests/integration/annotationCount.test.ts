// CountAnnotations (an Outpost extension, GET /api/v1/annotations:count) over
// real HTTP: the number ListAnnotations lists for a filter, counted by the same
// compiled filter and policy gate; a bad filter is the list's own error; past
// the cap the count stops and says it is not exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countMatching } from '../../src-main/filter/listQuery';
import { annotationListSpec } from '../../src-main/services/annotations/annotationListSpec';
import { startTestServer, type TestServer } from '../support/testServer';
import { createFixtures, type Fixtures } from '../support/fixtures';
import { expectViolation } from '../support/assertions';

let s: TestServer;
let f: Fixtures;

beforeAll(async () => {
  s = await startTestServer();
  f = createFixtures(s);
  for (let i = 0; i < 7; i++) {
    const res = await s.api('POST', '/api/v1/annotations', {
      name: `count ${i}`,
      startTime: '2026-09-01T10:00:00Z',
      endTime: '2026-09-01T10:00:05Z',
      assets: [f.assetName],
      tags: i % 2 ? ['odd'] : ['even'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
});
afterAll(async () => s.close());

async function listed(filter: string): Promise<number> {
  const res = await s.api('GET', `/api/v1/annotations?page_size=1000&filter=${encodeURIComponent(filter)}`);
  return res.body.annotations.length;
}

describe('CountAnnotations', () => {
  it('counts what the list lists, filter by filter', async () => {
    for (const filter of ['', 'tag_name == "odd"', 'name.startsWith("count") && tag_name == "even"', 'name == "none"']) {
      const res = await s.api('GET', `/api/v1/annotations:count?filter=${encodeURIComponent(filter)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ count: String(await listed(filter)), exact: true });
    }
    expect((await s.api('GET', `/api/v1/annotations:count?filter=${encodeURIComponent('tag_name == "odd"')}`)).body.count).toBe('3');
  });

  it("a bad filter is INVALID_ARGUMENT naming the filter, as the list's", async () => {
    expectViolation(await s.api('GET', `/api/v1/annotations:count?filter=${encodeURIComponent('nme == "x"')}`), 'filter');
  });

  it('past the cap it stops, answering the cap and exact false', () => {
    const scope = { sql: '1', params: [], fingerprint: [] };
    expect(countMatching(s.engine.db, annotationListSpec, 'name.startsWith("count")', scope, 100)).toEqual({ count: 7, exact: true });
    expect(countMatching(s.engine.db, annotationListSpec, 'name.startsWith("count")', scope, 7)).toEqual({ count: 7, exact: true });
    expect(countMatching(s.engine.db, annotationListSpec, 'name.startsWith("count")', scope, 5)).toEqual({ count: 5, exact: false });
  });
});
