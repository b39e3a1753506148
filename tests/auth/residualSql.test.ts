// The SQL a list's residual policies compile to keeps exactly the rows Cedar
// allows one by one: a differential test over a real SQLite file (the demo
// dataset: tags, assets, creators, assignees) and Cedar's own decisions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAuthorized, isAuthorizedPartial, type EntityJson, type PolicyJson } from '@cedar-policy/cedar-wasm/nodejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src-main/db/database';
import { seedDemoData } from '../../src-main/seed/seedDemoData';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from '../../src-main/auth/identity';
import { CEDAR_ACTIONS } from '../../src-main/auth/cedar/actions';
import { actionEntity, actionUid } from '../../src-main/auth/cedar/decide';
import { principalEntity, recordEntities } from '../../src-main/auth/cedar/entities';
import { recordTypeNamed } from '../../src-main/auth/cedar/recordTypes';
import { cheaperForms, residualsToSql } from '../../src-main/auth/cedar/residualSql';

const annotation = recordTypeNamed('Annotation')!;
const list = CEDAR_ACTIONS.get('ListAnnotations')!;
let dir: string;
let db: Db;
let principal: EntityJson;
let organizationId: string;
let other: string; // another user of the organization

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'outpost-residual-'));
  db = openDatabase(join(dir, 'outpost.sqlite'));
  const me = ensureMember(db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME);
  organizationId = me.organizationId;
  seedDemoData(db, { annotations: 300 });
  db.run(
    "INSERT INTO asset_tags(asset_pk, tag_name, position) SELECT pk, 'propulsion', 0 FROM assets WHERE name LIKE 'Falcon%' OR name LIKE 'Raptor%'",
  );
  other = db.get<{ id: string }>("SELECT id FROM users WHERE user_name = 'ana.ruiz@outpost.local'")!.id;
  principal = principalEntity(db, loadCaller(db, me.userId)!, organizationId);
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function residuals(policies: Record<string, string>): Record<string, PolicyJson> {
  const answer = isAuthorizedPartial({
    principal: principal.uid as never,
    action: actionUid(list),
    resource: null,
    context: {},
    policies: { staticPolicies: policies },
    entities: [principal, actionEntity(list)],
  });
  if (answer.type !== 'residuals') throw new Error(JSON.stringify(answer));
  return answer.response.residuals;
}

/** The pks of the organization's annotations the condition keeps. */
function rowsOf(condition: { sql: string; params: readonly unknown[] }): number[] {
  return db
    .all<{ pk: number }>(`SELECT t.pk FROM annotations t WHERE t.organization_id = ? AND ${condition.sql} ORDER BY t.pk`, [
      organizationId,
      ...(condition.params as never[]),
    ])
    .map((r) => r.pk);
}

/** The pks Cedar allows, deciding every row with its entity. */
function cedarRows(policies: Record<string, string>): number[] {
  const pks = db.all<{ pk: number }>('SELECT pk FROM annotations WHERE organization_id = ? ORDER BY pk', [organizationId]).map((r) => r.pk);
  return recordEntities(db, annotation, pks)
    .filter((r) => {
      const answer = isAuthorized({
        principal: principal.uid as never,
        action: actionUid(list),
        resource: r.entity.uid as never,
        context: {},
        policies: { staticPolicies: policies },
        entities: [principal, r.entity, actionEntity(list)],
      });
      if (answer.type !== 'success') throw new Error(JSON.stringify(answer));
      return answer.response.decision === 'allow';
    })
    .map((r) => r.pk);
}

const ALL = `permit(principal in Organization::"${'ORG'}", action, resource);`;
const cases: [string, Record<string, string>][] = [
  [
    'a forbid on a tag',
    { all: ALL, f: 'forbid(principal, action in Action::"read", resource is Annotation) when { resource.tags.contains("thermal") };' },
  ],
  [
    'unless the caller created it',
    {
      all: ALL,
      f: 'forbid(principal, action, resource) when { resource.tags.containsAny(["anomaly", "pressure"]) } unless { resource.creator == principal };',
    },
  ],
  [
    'assets tagged propulsion',
    {
      all: ALL,
      f: 'forbid(principal, action in Action::"read", resource is Annotation) when { resource.assetTags.contains("propulsion") };',
    },
  ],
  [
    'only what is assigned to me or unassigned',
    { p: 'permit(principal, action, resource is Annotation) unless { resource has assignee && !(resource.assignee == principal) };' },
  ],
  [
    "a colleague's assignments, or two tags at once",
    {
      p: `permit(principal, action, resource) when { (resource has assignee && resource.assignee == User::"OTHER") || resource.tags.containsAll(["thermal", "hardware"]) };`,
    },
  ],
  ['another record type only', { p: 'permit(principal, action, resource is Asset);' }],
  [
    'many forbids on tags and asset tags (one membership list each)',
    {
      all: ALL,
      ...Object.fromEntries(
        ['never-1', 'never-2', 'thermal', 'never-3', 'anomaly'].map((tag, i) => [
          `t${i}`,
          `forbid(principal, action in Action::"read", resource is Annotation) when { resource.tags.contains("${tag}") };`,
        ]),
      ),
      a1: 'forbid(principal, action, resource) when { resource.assetTags.contains("propulsion") };',
      a2: 'forbid(principal, action, resource) when { resource.assetTags.contains("never") };',
    },
  ],
];

describe('residualsToSql keeps exactly the rows Cedar allows', () => {
  it.each(cases)('%s', (_, raw) => {
    const policies = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v.replace('ORG', organizationId).replace('OTHER', other)]));
    const sql = residualsToSql(residuals(policies), annotation);
    expect(sql).toBeDefined();
    const expected = cedarRows(policies);
    // Every membership per row (as compiled), and every one as a set (what cheaperForms picks when few children match).
    const asSets = (sql!.forms ?? []).reduce((text, f) => text.replace(f.perRow, () => f.asSet), sql!.sql);
    for (const text of [sql!.sql, asSets]) expect(rowsOf({ sql: text, params: sql!.params })).toEqual(expected);
    expect(expected.length).toBeLessThan(300); // every case hides something: the comparison can fail
  });

  it('reads a membership as a set while few records hold its values, per row once many do; the same rows either way', () => {
    const policies = (tag: string) => ({
      all: ALL.replace('ORG', organizationId),
      f: `forbid(principal, action in Action::"read", resource is Annotation) when { resource.tags.contains("${tag}") || resource.assetTags.contains("${tag}") };`,
    });
    const rare = residualsToSql(residuals(policies('thermal')), annotation)!;
    expect(rare.forms).toHaveLength(2);
    const rareChosen = cheaperForms(db, rare);
    expect(rareChosen.sql).not.toContain('EXISTS');
    expect(rareChosen.sql.match(/t\.pk IN \(SELECT/g)).toHaveLength(2);
    expect(rowsOf(rareChosen)).toEqual(cedarRows(policies('thermal')));

    // On every annotation (and, through their assets, above the bound too): per row.
    db.run("INSERT INTO annotation_tags(annotation_pk, tag_name, position) SELECT pk, 'everywhere', 99 FROM annotations");
    db.run("INSERT INTO asset_tags(asset_pk, tag_name, position) SELECT pk, 'everywhere', 99 FROM assets");
    try {
      const common = residualsToSql(residuals(policies('everywhere')), annotation)!;
      const commonChosen = cheaperForms(db, common);
      expect(commonChosen.sql).toBe(common.sql);
      expect(rowsOf(commonChosen)).toEqual([]);
    } finally {
      db.run("DELETE FROM annotation_tags WHERE tag_name = 'everywhere'");
      db.run("DELETE FROM asset_tags WHERE tag_name = 'everywhere'");
    }
  });

  it('leaves to the row-by-row path what the tables do not hold (resource attributes), or an optional attribute read unguarded', () => {
    expect(
      residualsToSql(residuals({ p: 'permit(principal, action, resource) when { resource.getTag("program") == "x" };' }), annotation),
    ).toBeUndefined();
    expect(
      residualsToSql(residuals({ p: 'permit(principal, action, resource) unless { resource.assignee == principal };' }), annotation),
    ).toBeUndefined();
  });

  it("reads a row's children once for a membership of many values, not one index seek per value", () => {
    const policies = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `f${i}`,
        `forbid(principal, action, resource) when { resource.tags.contains("never-${i}") || resource.assetTags.contains("never-${i}") };`,
      ]),
    );
    const sql = residualsToSql(residuals({ all: ALL.replace('ORG', organizationId), ...policies }), annotation)!;
    expect(sql.params.filter((p) => String(p).startsWith('never-'))).toHaveLength(80);
    const plan = db
      .all<{ detail: string }>(`EXPLAIN QUERY PLAN SELECT t.pk FROM annotations t WHERE t.organization_id = ? AND ${sql.sql}`, [
        organizationId,
        ...sql.params,
      ])
      .map((r) => r.detail);
    expect(plan.filter((d) => /tag_name=\?/.test(d))).toEqual([]);
    expect(plan.some((d) => d.includes('annotation_pk=?'))).toBe(true);
  });

  it('binds values as parameters, never in the SQL text', () => {
    const sql = residualsToSql(
      residuals({ p: `permit(principal, action, resource) when { resource.tags.contains("x' OR 1=1 --") };` }),
      annotation,
    )!;
    expect(sql.sql).not.toContain('OR 1=1');
    expect(sql.params).toContain("x' OR 1=1 --");
  });
});
