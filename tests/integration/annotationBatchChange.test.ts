// BatchChangeAnnotations (an Outpost extension, POST /api/v1/annotations:batchChange) over real HTTP: one change to
// every annotation a filter matches, in one transaction, each record changed as its single operation would
// (history, archive), answering what it changed so that the undo is one call on exactly those records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/testServer';
import { createFixtures, type Fixtures } from '../support/fixtures';
import { expectNotFound, expectViolation } from '../support/assertions';

let s: TestServer;
let f: Fixtures;

beforeAll(async () => {
  s = await startTestServer();
  f = createFixtures(s);
});
afterAll(async () => s.close());

const PATH = '/api/v1/annotations:batchChange';

/** `n` annotations carrying a tag of their own (the filter that selects them), the first `flagged` of them FLAGGED. */
async function group(n: number, flagged = 0): Promise<{ tag: string; ids: string[] }> {
  const tag = `bc-${randomUUID().slice(0, 8)}`;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await s.api('POST', '/api/v1/annotations', {
      name: `${tag} #${i}`,
      startTime: '2026-09-01T10:00:00Z',
      endTime: '2026-09-01T10:00:05Z',
      assets: [f.assetName],
      tags: [tag],
      ...(i < flagged ? { state: 'ANNOTATION_STATE_FLAGGED' } : {}),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(res.body.annotation.annotationId);
  }
  return { tag, ids };
}

const listed = async (filter: string) =>
  (await s.api('GET', `/api/v1/annotations?page_size=1000&filter=${encodeURIComponent(filter)}`)).body.annotations as Array<{
    annotationId: string;
    state: string;
    assignedToUserId: string;
    tags: string[];
    archivedDate: string | null;
    modifiedDate: string;
  }>;
const byId = <T extends { annotationId: string }>(rows: T[]) => new Map(rows.map((r) => [r.annotationId, r]));
const logCount = async (id: string) => (await s.api('GET', `/api/v1/annotations/${id}/logs`)).body.annotationLogs.length as number;

describe('BatchChangeAnnotations', () => {
  it('changes every annotation the filter matches, answers each with its previous value, and the undo restores exactly those', async () => {
    const { tag, ids } = await group(7, 2);
    const filter = `tag_name == "${tag}"`;
    const before = byId(await listed(filter));
    const logsBefore = await logCount(ids[3]);

    const res = await s.api('POST', PATH, { filter, change: { state: 'ANNOTATION_STATE_FLAGGED' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The two already FLAGGED are left alone (not changed, not undone).
    expect(res.body.changed).toEqual(ids.slice(2).map((annotationId) => ({ annotationId, previous: { state: 'ANNOTATION_STATE_OPEN' } })));
    const after = await listed(filter);
    expect(after.map((a) => a.state)).toEqual(Array(7).fill('ANNOTATION_STATE_FLAGGED'));
    // Each change wrote the history entry a single UpdateAnnotation writes.
    expect(await logCount(ids[3])).toBe(logsBefore + 1);

    // An annotation that joins the filter meanwhile is not touched by the undo: it acts on the records, not the filter.
    const late = (await group(1)).ids[0];
    const joined = await s.api('PATCH', '/api/v1/annotations', {
      annotation: { annotationId: late, tags: [tag], state: 'ANNOTATION_STATE_FLAGGED' },
      updateMask: 'tags,state',
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    const undo = await s.api('POST', PATH, {
      records: res.body.changed.map((c: { annotationId: string; previous: unknown }) => ({
        annotationId: c.annotationId,
        change: c.previous,
      })),
    });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect(undo.body.changed).toHaveLength(5);
    const undone = byId(await listed(filter));
    for (const id of ids) expect(undone.get(id)!.state).toBe(before.get(id)!.state);
    expect(undone.get(late)!.state).toBe('ANNOTATION_STATE_FLAGGED');
  });

  it('adds and removes a tag on each record’s own tags, assigns, archives (the list then hides them) and unarchives', async () => {
    const { tag, ids } = await group(4);
    const filter = `tag_name == "${tag}" && is_archived == false`;
    const added = await s.api('POST', PATH, { filter, change: { addTag: 'reviewed' } });
    expect(added.body.changed.map((c: { previous: unknown }) => c.previous)).toEqual(Array(4).fill({ removeTag: 'reviewed' }));
    expect((await listed(filter)).map((a) => a.tags)).toEqual(Array(4).fill([tag, 'reviewed']));

    const assigned = await s.api('POST', PATH, { filter, change: { assignedToUserId: f.otherUserId } });
    expect(assigned.body.changed.map((c: { previous: unknown }) => c.previous)).toEqual(Array(4).fill({ assignedToUserId: '' }));
    expect((await listed(filter)).map((a) => a.assignedToUserId)).toEqual(Array(4).fill(f.otherUserId));

    const archived = await s.api('POST', PATH, { filter, change: { archived: true } });
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    expect(archived.body.changed).toEqual(ids.map((annotationId) => ({ annotationId, previous: { archived: false } })));
    expect(await listed(filter)).toEqual([]);
    expect((await listed(`tag_name == "${tag}"`)).every((a) => a.archivedDate !== null)).toBe(true);

    const restored = await s.api('POST', PATH, {
      records: archived.body.changed.map((c: { annotationId: string; previous: unknown }) => ({
        annotationId: c.annotationId,
        change: c.previous,
      })),
    });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect((await listed(filter)).map((a) => a.annotationId).sort()).toEqual([...ids].sort());

    const removed = await s.api('POST', PATH, { filter, change: { removeTag: 'reviewed' } });
    expect(removed.body.changed).toHaveLength(4);
    expect((await listed(filter)).map((a) => a.tags)).toEqual(Array(4).fill([tag]));
  });

  it('a bad filter is INVALID_ARGUMENT naming filter and changes nothing', async () => {
    const { tag } = await group(2);
    const before = await listed(`tag_name == "${tag}"`);
    expectViolation(await s.api('POST', PATH, { filter: `tag_name == "${tag}" && stat == 1`, change: { archived: true } }), 'filter');
    expectViolation(await s.api('POST', PATH, { filter: `tag_name == `, change: { archived: true } }), 'filter');
    expect(await listed(`tag_name == "${tag}"`)).toEqual(before);
  });

  it('refuses a request that is not one selection with one change, naming the field', async () => {
    const { ids } = await group(1);
    expectViolation(await s.api('POST', PATH, { change: { archived: true } }), 'filter');
    expectViolation(await s.api('POST', PATH, { filter: 'name == "x"' }), 'change');
    expectViolation(await s.api('POST', PATH, { filter: 'name == "x"', change: { archived: true, addTag: 'x' } }), 'change');
    expectViolation(await s.api('POST', PATH, { filter: 'name == "x"', change: { state: 'NOPE' } }), 'change.state');
    expectViolation(
      await s.api('POST', PATH, { records: [{ annotationId: ids[0], change: { archived: true } }], change: { archived: true } }),
      'change',
    );
    expectViolation(
      await s.api('POST', PATH, {
        records: [
          { annotationId: ids[0], change: { archived: true } },
          { annotationId: ids[0], change: { archived: false } },
        ],
      }),
      'records[1].annotation_id',
    );
  });

  it('one failing record fails the batch, naming it, and changes nothing', async () => {
    const { tag, ids } = await group(3);
    const ghost = randomUUID();
    expectNotFound(
      await s.api('POST', PATH, {
        records: [
          { annotationId: ids[0], change: { addTag: 'x' } },
          { annotationId: ghost, change: { addTag: 'x' } },
        ],
      }),
      new RegExp(ghost),
    );
    // An assignee who is not a member fails its record's UpdateAnnotation: the others roll back with it.
    const res = await s.api('POST', PATH, { filter: `tag_name == "${tag}"`, change: { assignedToUserId: randomUUID() } });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe(3);
    expect((await listed(`tag_name == "${tag}"`)).map((a) => [a.assignedToUserId, a.tags])).toEqual(ids.map(() => ['', [tag]]));
  });

  it('each record is decided by the policies as its own operation: a forbid on one refuses the batch, naming it; hidden ones are not selected', async () => {
    const { tag, ids } = await group(3);
    const filter = `tag_name == "${tag}"`;
    const member = s.newToken('member@outpost.local');
    const create = async (name: string, cedarPolicy: string) =>
      (await s.api('POST', '/api/v1/policies', { name, configuration: { cedarPolicy } })).body.policy.policyId as string;
    const frozen = await create(
      'Frozen record',
      `forbid(principal, action == Action::"ArchiveAnnotation", resource == Annotation::"${ids[1]}");`,
    );
    try {
      const res = await s.api('POST', PATH, { filter, change: { archived: true } }, member);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.message).toContain(`ArchiveAnnotation (action group archive) on Annotation::"${ids[1]}"`);
      expect((await listed(filter)).every((a) => a.archivedDate === null)).toBe(true);
    } finally {
      await s.api('POST', `/api/v1/policies/${frozen}/archive`);
    }
    // A record the list does not show the caller is not among the matching: the rest change.
    const hidden = await create(
      'Hidden record',
      `forbid(principal, action == Action::"ListAnnotations", resource == Annotation::"${ids[2]}");`,
    );
    try {
      const res = await s.api('POST', PATH, { filter, change: { addTag: 'seen' } }, member);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.changed.map((c: { annotationId: string }) => c.annotationId)).toEqual(ids.slice(0, 2));
    } finally {
      await s.api('POST', `/api/v1/policies/${hidden}/archive`);
    }
    expect(byId(await listed(filter)).get(ids[2])!.tags).toEqual([tag]);
  });
});
