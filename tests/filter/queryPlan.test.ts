// EXPLAIN QUERY PLAN of the SQL listPage actually runs: indexed predicates
// (equality and prefix on name, a start_time range, the tag relation, a
// metadata key) are index searches, not scans, both before statistics exist
// and after ANALYZE. (Without statistics SQLite prefers walking the default
// order's index for `name == 'x'`; with them, which the app gets from
// `PRAGMA optimize`, it searches the name index. Both are checked.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db, type Params } from '../../src-main/db/database';
import { listPage } from '../../src-main/filter/listQuery';
import { annotationListSpec } from '../../src-main/services/annotations/annotationListSpec';
import { artifactListSpec } from '../../src-main/services/artifacts/artifactListSpecs';
import { loadDataset, openFilterTestDb, ORGANIZATION_ID, type AnnotationRowData, type FilterTestDb } from './support/annotationDataset';

/** Records the SQL listPage runs. */
class RecordingDb extends Db {
  last: { sql: string; params: Params } | undefined;

  override all<T = Record<string, unknown>>(sql: string, params: Params = []): T[] {
    this.last = { sql, params };
    return super.all<T>(sql, params);
  }
}

const T0 = Date.UTC(2024, 0, 1);
const ROWS = 4000;

let t: FilterTestDb;
let db: RecordingDb;
beforeAll(() => {
  t = openFilterTestDb();
  const rows: AnnotationRowData[] = Array.from({ length: ROWS }, (_, i) => ({
    id: `p-${i}`,
    name: `sensor ${String(i).padStart(5, '0')}`,
    description: `run ${i % 7}`,
    startMs: T0 + i * 60_000,
    endMs: T0 + i * 60_000 + 1000,
    createdMs: T0 + i,
    modifiedMs: T0 + i,
    runId: i % 2 ? 'run-a' : null,
    state: (i % 3) + 1,
    annotationType: 1,
    pending: false,
    archivedMs: null,
    createdBy: 'u1',
    conditionVersion: null,
    assignee: i % 5 ? 'u1' : '',
    tags: [`tag-${i % 400}`, 'everywhere'],
    assetIds: [],
    metadata: { env: `env-${i % 300}`, n: i, bench: i % 2 ? 'hil' : 'sim' },
  }));
  loadDataset(t.db, rows);
  db = new RecordingDb(t.db.raw);
});
afterAll(() => t.close());

function plan(filter: string, orderBy?: string): string {
  listPage(db, annotationListSpec, { filter, orderBy }, { sql: 't.organization_id = ?', params: [ORGANIZATION_ID], fingerprint: [] }, 's');
  const { sql, params } = db.last!;
  const steps = t.db.raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as never[])) as { detail: string }[];
  return steps.map((s) => s.detail).join('\n');
}

const CASES: [string, string | undefined, RegExp][] = [
  ["name == 'sensor 01234'", 'name', /USING (COVERING )?INDEX annotations_org_name \(organization_id=\? AND name=\?\)/],
  ["name.startsWith('sensor 012')", 'name', /USING (COVERING )?INDEX annotations_org_name \(organization_id=\? AND name>\? AND name<\?\)/],
  [
    "start_time >= timestamp('2024-01-02T00:00:00Z') && start_time < timestamp('2024-01-02T01:00:00Z')",
    undefined,
    /USING (COVERING )?INDEX annotations_org_start \(organization_id=\? AND start_time>\? AND start_time<\?\)/,
  ],
  [
    "start_time + duration('1h') > timestamp('2024-01-03T00:00:00Z')",
    'start_time',
    /USING (COVERING )?INDEX annotations_org_start \(organization_id=\? AND start_time>\?/,
  ],
  ["tag_name == 'tag-7'", undefined, /USING COVERING INDEX annotation_tags_name \(tag_name=\?\)/],
  ["tag_name.startsWith('tag-7')", undefined, /USING COVERING INDEX annotation_tags_name \(tag_name>\? AND tag_name<\?\)/],
  [
    "metadata['env'] == 'env-5'",
    undefined,
    /USING (COVERING )?INDEX annotation_metadata_(typed_)?string \(key=\? AND (type=\? AND )?string_value=\?\)/,
  ],
  [
    'metadata.n > 3990',
    undefined,
    /USING (COVERING )?INDEX annotation_metadata_(typed_)?number \(key=\? AND (type=\? AND )?number_value>\?\)/,
  ],
  // Every row has the key: the correlated probe on the primary key (annotation_pk, key) is chosen.
  [
    "'env' in metadata",
    undefined,
    /USING (COVERING )?INDEX annotation_metadata_\w+ \(key=\?\)|USING PRIMARY KEY \(annotation_pk=\? AND key=\?\)/,
  ],
  ["run_id == 'run-a'", 'name', /USING (COVERING )?INDEX annotations_run \(run_id=\?\)|annotations_org_name/],
  ["assignee == 'alice'", undefined, /SEARCH u\d+ USING (COVERING )?INDEX sqlite_autoindex_users_\d \(user_name=\?\)/],
];

describe('indexed predicates use their index', () => {
  it.each(CASES)('%s (order_by %s), no statistics', (filter, orderBy, expected) => {
    expect(plan(filter, orderBy)).toMatch(expected);
  });

  describe('after ANALYZE', () => {
    beforeAll(() => t.db.raw.exec('ANALYZE'));
    it("name == 'sensor 01234' in the default order", () => {
      expect(plan("name == 'sensor 01234'")).toMatch(/USING (COVERING )?INDEX annotations_org_name \(organization_id=\? AND name=\?\)/);
    });
    it.each(CASES.filter(([f]) => !f.startsWith('run_id') && !f.startsWith("'env'")))('%s (order_by %s)', (filter, orderBy, expected) => {
      expect(plan(filter, orderBy)).toMatch(expected);
    });
  });

  it('drives from the child index for a rare value, walks the order with a correlated probe for a common one', () => {
    expect(plan("tag_name == 'tag-7'")).toMatch(/LIST SUBQUERY/);
    const common = plan("tag_name == 'everywhere'");
    expect(common).not.toMatch(/LIST SUBQUERY|TEMP B-TREE/);
    expect(common).toMatch(
      /SEARCH tag\d+ (EXISTS )?USING (COVERING )?(INDEX annotation_tags_name|PRIMARY KEY) \((tag_name=\? AND annotation_pk=\?|annotation_pk=\? AND tag_name=\?)\)/,
    );
  });

  it('a negated relation probes one row’s children by (row, value), not every child of the row', () => {
    // !(tag_name == 'x') is "no tag equals x": tags are never NULL, so the probe is tag_name = ?, which the
    // primary key (annotation_pk, tag_name) answers; a NULL-safe (tag_name <> ?) IS NOT 1 reads each tag.
    for (const filter of [
      "!(tag_name == 'everywhere')",
      "tag_name.all(x, x != 'everywhere')",
      "!tag_name.exists(x, x == 'everywhere')",
      "!('everywhere' in tag_name)",
    ]) {
      const p = plan(filter);
      expect(p).toMatch(
        /SEARCH tag\d+ USING (COVERING )?(PRIMARY KEY|INDEX \w+) \((annotation_pk=\? AND tag_name=\?|tag_name=\? AND annotation_pk=\?)\)/,
      );
    }
  });

  it('reads one row’s metadata by its primary key in a correlated probe, not through a typed value index', () => {
    // Half the rows match: the planner walks the order and probes each row (EXISTS). SQLite would seek
    // (key, type, string_value, annotation_pk) there, about twice as slow per row as (annotation_pk, key).
    for (const filter of ["metadata['bench'] == 'hil'", "metadata['bench'] == 'hil' && metadata.n > 10"]) {
      const common = plan(filter);
      expect(common).not.toMatch(/LIST SUBQUERY/);
      expect(common).toMatch(/SEARCH md\d+ EXISTS USING PRIMARY KEY \(annotation_pk=\? AND key=\?\)/);
      expect(common).not.toMatch(/EXISTS USING (COVERING )?INDEX annotation_metadata_typed/);
    }
  });

  it('never scans the annotations table itself for an indexed predicate', () => {
    for (const [filter, orderBy] of CASES) expect(plan(filter, orderBy)).not.toMatch(/SCAN t\b(?! USING)/);
  });
});

// ListArtifacts' `links` (a messages field): a rare link drives the page from
// artifact_links_entity and looks the few artifacts up by rowid. Without
// statistics SQLite assumes `organization_id = ?` keeps ~10 rows and would walk
// artifacts_org_created through the whole organization instead (the planner
// prevents that with NOT INDEXED, see semiJoinPlanner.ts).
describe('links.exists on artifacts', () => {
  const ARTIFACTS = 3000;
  let a: FilterTestDb;
  let adb: RecordingDb;
  beforeAll(() => {
    a = openFilterTestDb();
    const artifact = a.db.raw.prepare(
      `INSERT INTO artifacts(pk, id, organization_id, created_by_user_id, modified_by_user_id, title, storage_class, created_via, created_date, modified_date,
         archived_date, artifact_version_id, version, version_created_date, file_name, file_type, mime_type, size_bytes, sha256)
       VALUES (?, ?, ?, 'u1', 'u1', ?, 1, 1, ?, ?, ?, ?, 1, ?, 'f.csv', 'csv', 'text/csv', 1, '')`,
    );
    const link = a.db.raw.prepare(
      'INSERT INTO artifact_links(artifact_pk, relation, entity_type, entity_id, artifact_version_id, position) VALUES (?, ?, ?, ?, ?, ?)',
    );
    a.db.tx(() => {
      for (let i = 1; i <= ARTIFACTS; i++) {
        const created = (T0 + (i - (i % 7)) * 1000) * 1000;
        artifact.run(i, `a-${i}`, ORGANIZATION_ID, `Artifact ${i}`, created, created, i % 10 === 0 ? created : null, `v-${i}`, created);
        link.run(i, 1, 5, `conv-${i % 100}`, `v-${i}`, 0);
        if (i % 2 === 0) link.run(i, 1, 1, `ann-${(i * 7919) % 1000}`, `v-${i}`, 1);
        if (i % 5 === 0) link.run(i, 3, 2, `run-${i % 10}`, `v-${i}`, 2);
      }
    });
    adb = new RecordingDb(a.db.raw);
  });
  afterAll(() => a.close());

  function artifactPlan(filter: string, orderBy?: string): string {
    listPage(adb, artifactListSpec, { filter, orderBy }, { sql: 't.organization_id = ?', params: [ORGANIZATION_ID], fingerprint: [] }, 's');
    const { sql, params } = adb.last!;
    const steps = a.db.raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as never[])) as { detail: string }[];
    return steps.map((s) => s.detail).join('\n');
  }

  const RARE = "links.exists(l, l.entity_type == ANNOTATION && l.entity_id == 'ann-838')";
  const COMMON = 'links.exists(l, l.relation == REFERENCES && l.entity_type == RUN)';

  it('a rare link, no statistics: searches the link index and looks the artifacts up by rowid', () => {
    const p = artifactPlan(RARE);
    expect(p).toMatch(/SEARCH t USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(p).toMatch(/SEARCH l\d+ USING COVERING INDEX artifact_links_entity \(entity_type=\? AND entity_id=\?\)/);
    expect(p).not.toMatch(/artifacts_org_created|SCAN t\b/);
  });

  it('a common link, no statistics: walks created_date order with a correlated probe', () => {
    const p = artifactPlan(COMMON);
    expect(p).toMatch(/SEARCH t USING INDEX artifacts_org_created \(organization_id=\?\)/);
    expect(p).toMatch(/SEARCH l\d+ EXISTS USING PRIMARY KEY \(artifact_pk=\? AND relation=\? AND entity_type=\?\)/);
    expect(p).not.toMatch(/TEMP B-TREE/);
  });

  it('the rare link finds the same rows whatever the plan', () => {
    listPage(adb, artifactListSpec, { filter: RARE }, { sql: 't.organization_id = ?', params: [ORGANIZATION_ID], fingerprint: [] }, 's');
    const { sql, params } = adb.last!;
    const planned = a.db.all<{ k1: number }>(sql, params).map((r) => r.k1);
    const plain = a.db.all<{ k1: number }>(sql.replace(' AS t NOT INDEXED', ' t'), params).map((r) => r.k1);
    expect(planned.length).toBeGreaterThan(0);
    expect(planned).toEqual(plain);
  });

  it("a sync pull's incremental page (modified_date >= cursor, in modified_date order) searches artifacts_org_modified", () => {
    const p = artifactPlan(`modified_date >= timestamp('2024-01-01T00:40:00Z')`, 'modified_date');
    expect(p).toMatch(/SEARCH t USING INDEX artifacts_org_modified \(organization_id=\? AND modified_date>\?\)/);
    expect(p).not.toMatch(/TEMP B-TREE/);
  });

  describe('after ANALYZE', () => {
    beforeAll(() => a.db.raw.exec('ANALYZE'));
    it('a rare link: SQLite, now informed, still drives from the link index', () => {
      const p = artifactPlan(RARE);
      expect(p).toMatch(/SEARCH t USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      expect(adb.last!.sql).not.toMatch(/NOT INDEXED/);
    });
  });
});
