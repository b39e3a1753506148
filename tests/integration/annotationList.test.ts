// ListAnnotations over HTTP: page sizes, AIP-132 order_by, keyset paging with
// heavy ties, and page-token rules, checked against the seeded demo data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/testServer';
import { seedDemoData } from '../../src-main/seed/seedDemoData';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
  seedDemoData(s.engine.db, { annotations: 1500 });
  // Force heavy ties on created_date: 400 annotations share one timestamp.
  s.engine.db.run('UPDATE annotations SET created_date = 1790000000000000 WHERE pk % 4 = 0 AND pk <= 1600');
});
afterAll(async () => s.close());

type A = {
  annotationId: string;
  name: string;
  description: string;
  createdDate: string;
  modifiedDate: string;
  startTime: string;
  endTime: string;
};

async function listAll(query: string, pageSize: number): Promise<A[]> {
  const out: A[] = [];
  let token = '';
  for (let i = 0; i < 1000; i++) {
    const res = await s.api(
      'GET',
      `/api/v1/annotations?page_size=${pageSize}${query}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.annotations.length).toBeLessThanOrEqual(pageSize);
    out.push(...res.body.annotations);
    token = res.body.nextPageToken;
    if (!token) return out;
  }
  throw new Error('paging did not terminate');
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('ListAnnotations', () => {
  it('defaults to 50 per page, newest created first', async () => {
    const res = await s.api('GET', '/api/v1/annotations');
    expect(res.body.annotations).toHaveLength(50);
    expect(typeof res.body.nextPageToken).toBe('string');
    const dates = res.body.annotations.map((a: A) => a.createdDate);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('coerces page sizes above 1000 to 1000 and rejects negative ones', async () => {
    expect((await s.api('GET', '/api/v1/annotations?page_size=5000')).body.annotations).toHaveLength(1000);
    const neg = await s.api('GET', '/api/v1/annotations?page_size=-1');
    expect(neg.status).toBe(400);
    expect(neg.body.details[0].fieldViolations[0].field).toBe('page_size');
    expect((await s.api('GET', '/api/v1/annotations?page_size=abc')).status).toBe(400);
  });

  it.each([
    ['', (a: A, b: A) => cmp(b.createdDate, a.createdDate)],
    ['created_date', (a: A, b: A) => cmp(a.createdDate, b.createdDate)],
    ['modified_date desc', (a: A, b: A) => cmp(b.modifiedDate, a.modifiedDate)],
    ['start_time', (a: A, b: A) => cmp(a.startTime, b.startTime)],
    ['end_time desc', (a: A, b: A) => cmp(b.endTime, a.endTime)],
    ['name', (a: A, b: A) => cmp(a.name, b.name)],
    ['description desc, name', (a: A, b: A) => cmp(b.description, a.description) || cmp(a.name, b.name)],
    ['  name desc ,  created_date ', (a: A, b: A) => cmp(b.name, a.name) || cmp(a.createdDate, b.createdDate)],
  ])('pages through every row exactly once ordered by "%s"', async (orderBy, compare) => {
    const rows = await listAll(orderBy ? `&order_by=${encodeURIComponent(orderBy)}` : '', 97);
    expect(rows).toHaveLength(1500);
    expect(new Set(rows.map((r) => r.annotationId)).size).toBe(1500);
    for (let i = 1; i < rows.length; i++) expect(compare(rows[i - 1], rows[i]), `${orderBy} at ${i}`).toBeLessThanOrEqual(0);
  });

  it.each([
    ['an unknown field', 'nmae', /cannot order annotations by 'nmae'/],
    ['a bad direction', 'name descending', /unknown direction/],
    ['a repeated field', 'name, name desc', /more than once/],
    ['garbage', 'name desc extra', /cannot parse/],
  ])('rejects order_by with %s', async (_l, orderBy, pattern) => {
    const res = await s.api('GET', `/api/v1/annotations?order_by=${encodeURIComponent(orderBy)}`);
    expect(res.status).toBe(400);
    expect(res.body.details[0].fieldViolations[0].field).toBe('order_by');
    expect(res.body.message).toMatch(pattern);
  });

  it('rejects a page token replayed with other parameters, tampered or malformed', async () => {
    const first = await s.api('GET', '/api/v1/annotations?page_size=10&order_by=name');
    const token = first.body.nextPageToken as string;
    expect(token).not.toBe('');
    const other = await s.api('GET', `/api/v1/annotations?page_size=10&order_by=created_date&page_token=${token}`);
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/does not match/);
    // page_size may change between pages (AIP-158)
    expect((await s.api('GET', `/api/v1/annotations?page_size=20&order_by=name&page_token=${token}`)).status).toBe(200);
    const [body, mac] = token.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    payload.k[0] = 'zzz';
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    expect((await s.api('GET', `/api/v1/annotations?page_size=10&order_by=name&page_token=${forged}`)).status).toBe(400);
    expect((await s.api('GET', '/api/v1/annotations?page_token=not-a-token')).status).toBe(400);
    expect((await s.api('GET', '/api/v1/annotations?page_token=%27%3B%20DROP%20TABLE%20annotations%3B--')).status).toBe(400);
    expect(s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM annotations')!.n).toBe(1500);
  });

  it('includes archived annotations (the client filters them out when it wants to)', async () => {
    const archived = s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM annotations WHERE archived_date IS NOT NULL')!.n;
    expect(archived).toBeGreaterThan(0);
    const rows = await listAll('', 1000);
    expect(rows.filter((r) => (r as unknown as { isArchived: boolean }).isArchived)).toHaveLength(archived);
  });
});
