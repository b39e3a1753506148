// ListAnnotations over HTTP writes JSON text built straight from the rows
// (services/annotations/annotationJson.ts). The oracle is the object path:
// JSON.stringify of the wire objects other transports get, checked against
// the zod response schema. Every page over HTTP must be the same bytes, on
// seeded data with every optional field and child list present and absent,
// and on stored values the object path formats in JavaScript (non-integer
// and huge numbers, archived metadata, timestamps past 2^53 micros, odd
// strings, unknown enum numbers, child rows out of position order).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src-shared/operations';
import { authenticate } from '../../src-main/auth/apiKeys';
import { seedDemoData } from '../../src-main/seed/seedDemoData';
import { invoke } from '../../src-main/services/invoke';
import { startTestServer, type TestServer } from '../support/testServer';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
  seedDemoData(s.engine.db, { annotations: 400 });
});
afterAll(async () => s.close());

const ODD_STRINGS = [
  '',
  'plain',
  'quote " and \\ backslash',
  'controls \u0000\u0001\b\t\n\f\r\u001f\u007f',
  'unicode é ü 漢字 😀 \u2028\u2029',
  '/slash/at/start',
  'no-slash',
  "it's",
];

/** The HTTP body of one ListAnnotations request, as text. */
async function httpText(query: string): Promise<string> {
  const res = await fetch(`${s.url}/api/v1/annotations?${query}`, { headers: { Authorization: `Bearer ${s.token}` } });
  expect(res.status).toBe(200);
  return res.text();
}

/** The object path's JSON for the same request (what IPC and in-process callers get), checked against the zod schema. */
async function objectJson(query: string): Promise<string> {
  const caller = authenticate(s.engine.db, `Bearer ${s.token}`);
  const raw = Object.fromEntries(new URLSearchParams(query));
  const result = await invoke({ engine: s.engine, db: s.engine.db, caller }, 'ListAnnotations', raw);
  const text = JSON.stringify(result);
  expect(operations.ListAnnotations.response.parse(JSON.parse(text))).toEqual(JSON.parse(text));
  return text;
}

/** Pages through every annotation with both paths, comparing each page's bytes; returns how many were listed. */
async function compareAllPages(pageSize: number, orderBy = 'modified_date'): Promise<number> {
  let token = '';
  let listed = 0;
  do {
    const query = `page_size=${pageSize}&order_by=${encodeURIComponent(orderBy)}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`;
    const fast = await httpText(query);
    expect(fast).toBe(await objectJson(query));
    const page = JSON.parse(fast) as { annotations: unknown[]; nextPageToken: string };
    listed += page.annotations.length;
    token = page.nextPageToken;
  } while (token);
  return listed;
}

const db = () => s.engine.db;
const pks = () =>
  db()
    .all<{ pk: number }>('SELECT pk FROM annotations ORDER BY pk')
    .map((r) => r.pk);

describe('ListAnnotations JSON text (HTTP) is byte-identical to the wire objects', () => {
  it('on the demo seed (tags, assets, linked channels, metadata, assignees, archived ones), pages of 1000, 50 and 1', async () => {
    const total = db().get<{ n: number }>('SELECT count(*) AS n FROM annotations')!.n;
    expect(await compareAllPages(1000)).toBe(total);
    expect(await compareAllPages(50, 'name desc')).toBe(total);
    let one = 0;
    for (let token = '', i = 0; i < 5; i++) {
      const query = `page_size=1${token ? `&page_token=${encodeURIComponent(token)}` : ''}`;
      const fast = await httpText(query);
      expect(fast).toBe(await objectJson(query));
      token = (JSON.parse(fast) as { nextPageToken: string }).nextPageToken;
      one++;
    }
    expect(one).toBe(5);
  });

  it('with every optional field set, absent, and stored values the SQL cannot print itself', async () => {
    const all = pks();
    const d = db();
    const org = d.get<{ id: string }>('SELECT id FROM organizations LIMIT 1')!.id;
    const user = d.get<{ id: string }>('SELECT id FROM users LIMIT 1')!.id;
    const at = (i: number) => all[i % all.length];
    // Optional strings present and absent; odd strings everywhere strings go.
    ODD_STRINGS.forEach((text, i) => {
      d.run(
        `UPDATE annotations SET name = ?, description = ?, legend_config = ?, created_by_condition_id = ?, created_by_rule_condition_version_id = ?,
           report_rule_version_id = ?, run_id = NULL, pending = ?, is_noisy_rule = ?, batched_triggers = ? WHERE pk = ?`,
        [text, text, text, text, text, text, i % 2, (i + 1) % 2, i * 7, at(i)],
      );
      d.run('INSERT OR REPLACE INTO annotation_tags(annotation_pk, tag_name, position) VALUES (?, ?, ?)', [at(i), text, 9 - i]);
    });
    // Enums: unspecified, unknown numbers (state omitted, type unspecified), no state.
    d.run('UPDATE annotations SET state = 0, annotation_type = 0 WHERE pk = ?', [at(10)]);
    d.run('UPDATE annotations SET state = 99, annotation_type = 77 WHERE pk = ?', [at(11)]);
    d.run('UPDATE annotations SET state = NULL, annotation_type = 2 WHERE pk = ?', [at(12)]);
    // Assignees: unknown user, a known one.
    d.run("UPDATE annotations SET assigned_to_user_id = 'no-such-user' WHERE pk = ?", [at(13)]);
    d.run('UPDATE annotations SET assigned_to_user_id = ? WHERE pk = ?', [user, at(14)]);
    // Timestamps: whole seconds, milliseconds, microseconds, before 1970, past 2^53 micros (read rounded), archived.
    const times = [
      1_700_000_000_000_000, 1_700_000_000_123_000, 1_700_000_000_123_456, -86_400_000_001, 253_402_300_799_999_999, 9_007_199_254_740_993,
    ];
    times.forEach((t, i) =>
      d.run('UPDATE annotations SET start_time = ?, end_time = ?, created_date = ?, archived_date = ? WHERE pk = ?', [
        t,
        t,
        t,
        t,
        at(20 + i),
      ]),
    );
    // Linked channels of every kind, with NULL columns, out of position order.
    d.run('DELETE FROM annotation_linked_channels WHERE annotation_pk = ?', [at(30)]);
    const channel = d.raw.prepare(
      'INSERT INTO annotation_linked_channels(annotation_pk, position, kind, channel_id, bit_field_name, calculated_channel_version_id) VALUES (?, ?, ?, ?, ?, ?)',
    );
    channel.run(at(30), 5, 1, 'c"1', null, null);
    channel.run(at(30), 2, 2, null, 'bit\\field', null);
    channel.run(at(30), 9, 3, null, null, null);
    channel.run(at(30), 1, 3, null, null, 'calc-1');
    // Metadata: every key type, unknown types and filter field types, relation splits, then inexact values.
    const meta = d.raw.prepare(
      `INSERT OR REPLACE INTO annotation_metadata(annotation_pk, key, type, string_value, number_value, boolean_value, position, archived_date, key_archived_date, key_filter_field_type)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const exact: [string, number, string | null, number | null, number | null, number | null][] = [
      ['s', 1, 'x\ny', null, null, null],
      ['s-null', 1, null, null, null, null],
      ['n', 2, null, -42, null, 6],
      ['n-neg-zero', 2, null, -0, null, null],
      ['n-null', 2, null, null, null, 99],
      ['n-big', 2, null, 9_007_199_254_740_991, null, null],
      ['b', 3, null, null, 1, null],
      ['b0', 3, null, null, 0, 2],
      ['b-null', 3, null, null, null, null],
      ['r', 4, 'run/abc/def', null, null, null],
      ['r-no-slash', 4, 'runonly', null, null, null],
      ['r-null', 4, null, null, null, null],
      ['unspecified', 0, 'u', null, null, null],
      ['unknown-type', 42, 'v', null, null, null],
    ];
    exact.forEach(([key, type, sv, nv, bv, fft], i) => meta.run(at(40), key, type, sv, nv, bv, 20 - i, null, null, fft));
    meta.run(at(41), 'fraction', 2, null, 0.1 + 0.2, null, 0, null, null, null);
    meta.run(at(42), 'huge', 2, null, 1e300, null, 0, null, null, null);
    meta.run(at(43), 'past-2^53', 2, null, 2 ** 60, null, 0, null, null, null);
    meta.run(at(44), 'archived', 1, 'a', null, null, 0, 1_700_000_000_000_001, null, null);
    meta.run(at(45), 'key-archived', 1, 'a', null, null, 0, null, 1_700_000_000_000_000, null);
    meta.run(at(46), 'tiny', 2, null, 5e-324, null, 0, null, null, null);
    // No children at all.
    for (const t of ['annotation_tags', 'annotation_assets', 'annotation_metadata', 'annotation_linked_channels'])
      d.run(`DELETE FROM ${t} WHERE annotation_pk = ?`, [at(50)]);
    expect(org).toBeTruthy();

    const total = all.length;
    expect(await compareAllPages(1000)).toBe(total);
    expect(await compareAllPages(7, 'start_time desc')).toBe(total);
  });

  it('for arbitrary strings (fast-check) in every string column and child list', async () => {
    const target = pks()[60];
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'grapheme' }),
        fc.array(fc.string({ unit: 'binary' }), { maxLength: 3 }),
        async (a, b, tags) => {
          const d = db();
          d.run('UPDATE annotations SET name = ?, description = ?, legend_config = ? WHERE pk = ?', [a, b, a, target]);
          d.run('DELETE FROM annotation_tags WHERE annotation_pk = ?', [target]);
          [...new Set(tags)].forEach((t, i) =>
            d.run('INSERT INTO annotation_tags(annotation_pk, tag_name, position) VALUES (?, ?, ?)', [target, t, i]),
          );
          d.run('UPDATE annotation_metadata SET string_value = ? WHERE annotation_pk = ? AND type = 1', [b, target]);
          const id = d.get<{ id: string }>('SELECT id FROM annotations WHERE pk = ?', [target])!.id;
          const query = `page_size=1&filter=${encodeURIComponent(`annotation_id == '${id}'`)}`;
          expect(await httpText(query)).toBe(await objectJson(query));
          runs++;
        },
      ),
      { numRuns: 60, seed: 18 },
    );
    expect(runs).toBe(60);
  });
});
