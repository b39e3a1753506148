// SQL injection through filter, order_by and page_token: every payload either
// runs as an ordinary (parameterized) filter or is INVALID_ARGUMENT, nothing
// else is ever thrown, no payload reaches the SQL text, and the database is
// byte-for-byte the same afterwards.
import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, Code } from '../../src-shared/errors';
import { compileFilter } from '../../src-main/filter/compileFilter';
import { listPage, type ListParams } from '../../src-main/filter/listQuery';
import { annotationListSpec } from '../../src-main/services/annotations/annotationListSpec';
import { datasetArb, loadDataset, openFilterTestDb, ORGANIZATION_ID, type FilterTestDb } from './support/annotationDataset';

const PAYLOADS = [
  "'; DROP TABLE annotations; --",
  "' OR 1=1 --",
  "x' OR '1'='1",
  '"; DELETE FROM annotations; --',
  "') UNION SELECT pk FROM annotations --",
  '1); DROP TABLE annotation_tags; --',
  "\\'; UPDATE annotations SET name = 'pwned'; --",
  "%' OR name LIKE '%",
  '*/ DROP TABLE annotations /*',
  "\u0000'; DROP TABLE annotations; --",
  "'||(SELECT group_concat(name) FROM sqlite_master)||'",
  "ATTACH DATABASE '/tmp/x' AS x; --",
];

/** A quoted CEL string literal carrying the payload. */
const lit = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const FILTERS = [
  ...PAYLOADS.flatMap((p) => [
    `name == ${lit(p)}`,
    `name.startsWith(${lit(p)})`,
    `name.contains(${lit(p)}) || description.endsWith(${lit(p)})`,
    `tag_name == ${lit(p)}`,
    `metadata[${lit(p)}] == ${lit(p)}`,
    `${lit(p)} in metadata`,
    `name in [${lit(p)}, 'a']`,
    `name.matches(${lit(p.replace(/[()*+?[\]{}|\\^$.]/g, ''))})`,
    `state == ${lit(p)}`,
    `assignee == ${lit(p)}`,
    p,
    `name == 'a' ${p}`,
  ]),
  "name == 'a' OR 1=1",
  "name == 'a'; DROP TABLE annotations",
  't.pk > 0',
  'pk > 0',
  'sqlite_master == 1',
  "name == 'a') OR (1 == 1",
  "name == 'a' -- comment",
  "name == 'a' /* comment */",
];

const ORDER_BYS = [
  ...PAYLOADS,
  'name; DROP TABLE annotations',
  'name desc; --',
  'name, (SELECT 1)',
  'name) --',
  'name COLLATE NOCASE',
  't.pk',
  'pk desc',
  '1',
  'name desc, created_date desc; DELETE FROM annotations',
];

let t: FilterTestDb;
beforeAll(() => {
  t = openFilterTestDb();
  const rows = fc.sample(
    datasetArb.filter((r) => r.length > 10),
    { numRuns: 1, seed: 7 },
  )[0];
  loadDataset(t.db, rows);
});
afterAll(() => t.close());

/** A digest of every row of every table. */
function databaseDigest(): string {
  const hash = createHash('sha256');
  const tables = t.db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  for (const { name } of tables) {
    hash.update(name);
    for (const row of t.db.raw.prepare(`SELECT * FROM "${name}"`).raw().all())
      hash.update(JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? v.toString() : v)));
  }
  return hash.digest('hex');
}

const scope = { sql: 't.organization_id = ?', params: [ORGANIZATION_ID], fingerprint: [ORGANIZATION_ID] };

/** Runs the request; returns 'ok' or 'invalid', and fails on any other outcome. */
function attempt(req: ListParams): 'ok' | 'invalid' {
  try {
    listPage(t.db, annotationListSpec, req, scope, 'secret');
    return 'ok';
  } catch (err) {
    if (err instanceof ApiError && err.code === Code.INVALID_ARGUMENT) return 'invalid';
    throw err;
  }
}

describe('SQL injection', () => {
  it('through filter: payloads stay parameters or are rejected', () => {
    const before = databaseDigest();
    const outcomes = FILTERS.map((filter) => ({ filter, outcome: attempt({ filter }) }));
    expect(databaseDigest()).toBe(before);
    expect(t.db.get<{ n: number }>("SELECT count(*) AS n FROM annotations WHERE name = 'pwned'")!.n).toBe(0);
    // String payloads inside literals compile; raw SQL syntax does not.
    expect(outcomes.filter((o) => o.outcome === 'ok').length).toBeGreaterThan(PAYLOADS.length * 8);
    for (const filter of FILTERS) {
      let sql: string;
      try {
        sql = compileFilter(annotationListSpec.filterFields, filter).sql;
      } catch {
        continue;
      }
      for (const p of PAYLOADS) if (p.length > 3) expect(sql).not.toContain(p);
      expect(sql).not.toMatch(/DROP|DELETE|UPDATE|ATTACH|UNION|--|\/\*/i);
    }
  });

  it('through order_by: always INVALID_ARGUMENT', () => {
    const before = databaseDigest();
    for (const orderBy of ORDER_BYS) expect(attempt({ orderBy })).toBe('invalid');
    expect(databaseDigest()).toBe(before);
  });

  it('through page_token: forged tokens are INVALID_ARGUMENT, cursor values are parameters', () => {
    const before = databaseDigest();
    for (const p of PAYLOADS) {
      const body = Buffer.from(JSON.stringify({ v: 1, f: p, k: [p, p] })).toString('base64url');
      expect(attempt({ pageToken: `${body}.${p}` })).toBe('invalid');
      expect(attempt({ pageToken: p })).toBe('invalid');
    }
    // Even a correctly signed token (the secret is never sent to clients) only carries cursor values, bound as parameters.
    const page = listPage(t.db, annotationListSpec, { orderBy: 'name', pageSize: 1 }, scope, 'secret');
    const [body] = page.nextPageToken.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as { v: 1; f: string; k: [string, number] };
    for (const p of PAYLOADS) {
      const forgedBody = Buffer.from(JSON.stringify({ ...payload, k: [p, payload.k[1]] })).toString('base64url');
      const token = `${forgedBody}.${createHmac('sha256', 'secret').update(forgedBody).digest('base64url').slice(0, 22)}`;
      expect(attempt({ orderBy: 'name', pageSize: 1, pageToken: token })).toBe('ok');
    }
    expect(databaseDigest()).toBe(before);
  });

  it('random strings in every parameter: only ok or INVALID_ARGUMENT, database unchanged (property)', () => {
    const before = databaseDigest();
    const piece = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(...PAYLOADS, "'", '"', ';', '--', ')', '(', 'name', '==', '||', 'desc', ','),
    );
    const text = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(' '));
    fc.assert(
      fc.property(fc.option(text), fc.option(text), fc.option(text), (filter, orderBy, pageToken) => {
        attempt({ filter: filter ?? undefined, orderBy: orderBy ?? undefined, pageToken: pageToken ?? undefined });
      }),
      { numRuns: 400 },
    );
    expect(databaseDigest()).toBe(before);
  });
});
