// The documented filter semantics (compileFilter.ts), on hand-made rows:
// absent fields, relation negation, enum literal forms, exact Unicode string
// functions, microsecond/nanosecond time precision, metadata maps, and, on a
// test-only declaration, `messages` comprehensions, directives and enums
// compared by unprefixed names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src-shared/errors';
import { openDatabase, type Db } from '../../src-main/db/database';
import { compileFilter } from '../../src-main/filter/compileFilter';
import type { FilterFields } from '../../src-main/filter/fields';
import { annotationListSpec } from '../../src-main/services/annotations/annotationListSpec';
import { loadDataset, openFilterTestDb, type AnnotationRowData, type FilterTestDb } from './support/annotationDataset';

const T0 = Date.UTC(2024, 0, 1);
const base: Omit<AnnotationRowData, 'id'> = {
  name: '',
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
};

const ROWS: AnnotationRowData[] = [
  {
    ...base,
    id: 'A',
    name: 'Alpha',
    runId: 'r1',
    state: 1,
    tags: ['x', 'y'],
    metadata: { env: 'prod', n: 3 },
    assignee: 'u1',
    assetIds: ['as1'],
  },
  { ...base, id: 'B', name: 'alpha', metadata: { env: 'dev', flag: true }, archivedMs: Date.UTC(2024, 1, 1), pending: true },
  {
    ...base,
    id: 'C',
    name: 'Al%_ha',
    runId: 'r2',
    state: 3,
    tags: ['x'],
    metadata: { n: 3.5 },
    assignee: 'u3',
    startMs: T0 + 86_400_000,
    endMs: T0 + 90_000_001,
  },
  { ...base, id: 'D', name: '😀b', description: 'e\u0301', state: 2, annotationType: 2 },
];

let t: FilterTestDb;
beforeAll(() => {
  t = openFilterTestDb();
  loadDataset(t.db, ROWS);
  // Microsecond precision that the generated datasets (millisecond, for the CEL library's Dates) never have.
  t.db.run("UPDATE annotations SET start_time = start_time + 1 WHERE id = 'A'");
});
afterAll(() => t.close());

function ids(db: Db, fields: FilterFields, table: string, filter: string): string[] {
  const compiled = compileFilter(fields, filter);
  const key = table === 'annotations' ? 'id' : 'name';
  return db
    .all<{ k: string }>(`SELECT t.${key} AS k FROM ${table} t WHERE ${compiled.sql} ORDER BY 1`, compiled.params as never[])
    .map((r) => r.k);
}

const annotations = (filter: string) => ids(t.db, annotationListSpec.filterFields, 'annotations', filter);

describe('absent optional fields read as null', () => {
  it.each([
    ['run_id == null', ['B', 'D']],
    ['run_id != null', ['A', 'C']],
    ["run_id != 'r1'", ['B', 'C', 'D']],
    ["!(run_id == 'r1')", ['B', 'C', 'D']],
    // Ordering and string functions on null are CEL errors: neither the condition nor its negation match.
    ["run_id < 'r2'", ['A']],
    ["!(run_id < 'r2')", ['C']],
    ["run_id.startsWith('r')", ['A', 'C']],
    ["!run_id.startsWith('r')", []],
    // An error is absorbed by || true and && false, as in CEL.
    ["run_id < 'r2' || name == 'alpha'", ['A', 'B']],
    ['state == null', ['B']],
    ['state != ANNOTATION_STATE_OPEN', ['B', 'C', 'D']],
    ['archived_date > timestamp("2024-01-15T00:00:00Z")', ['B']],
    ['!(archived_date > timestamp("2024-01-15T00:00:00Z"))', []],
  ])('%s', (filter, expected) => expect(annotations(filter)).toEqual(expected));
});

describe('relations mean "some element"', () => {
  it.each([
    ["tag_name == 'x'", ['A', 'C']],
    ["!(tag_name == 'x')", ['B', 'D']],
    ["tag_name != 'x'", ['A']],
    ["tag_name in ['y', 'z']", ['A']],
    ["asset_name == 'Rover 😀'", ['A']],
    ["assignee == 'alice'", ['A']],
    ["assignee == 'u1'", ['A']],
    ["assignee == 'u3'", ['C']],
    ["assignee == ''", ['B', 'D']],
    ["['x', 'y'].all(v, tag_name == v)", ['A']],
    ["['x', 'y'].exists_one(v, tag_name == v)", ['C']],
    ["report_id == 'r'", []],
    ["!(report_id == 'r')", ['A', 'B', 'C', 'D']],
  ])('%s', (filter, expected) => expect(annotations(filter)).toEqual(expected));

  it('rule_id follows the creating rule condition to its rule', () => {
    const db = t.db;
    db.run(
      "INSERT INTO rules(id, organization_id, name, created_date, modified_date, created_by_user_id, modified_by_user_id) VALUES ('rule-1', 'org-filter-tests', 'R', 0, 0, 'u1', 'u1')",
    );
    db.run(
      "INSERT INTO rule_conditions(id, rule_pk, position, version_id, expression, created_date, modified_date, created_by_user_id, modified_by_user_id) SELECT 'cond-1', pk, 0, 'v1', '{}', 0, 0, 'u1', 'u1' FROM rules WHERE id = 'rule-1'",
    );
    db.run("UPDATE annotations SET created_by_condition_id = 'cond-1' WHERE id = 'C'");
    expect(annotations("rule_id == 'rule-1'")).toEqual(['C']);
    expect(annotations("!(rule_id == 'rule-1')")).toEqual(['A', 'B', 'D']);
  });
});

describe('relations used as lists', () => {
  it.each([
    ["'x' in tag_name", ['A', 'C']],
    ["!('x' in tag_name)", ['B', 'D']],
    ["'y' in tag_name", ['A']],
    ["name in tag_name || 'alice' in assignee", ['A']],
    ['size(tag_name) == 0', ['B', 'D']],
    ['size(tag_name) == 2', ['A']],
    ['tag_name.size() == 1', ['C']],
    // assignee: the user id ('' when unassigned) and, when the user exists, the user's name.
    ['size(assignee) == 2', ['A']],
    ['size(assignee) == 1', ['B', 'C', 'D']],
    ["tag_name.exists(t, t.startsWith('y'))", ['A']],
    ["tag_name.all(t, t == 'x')", ['B', 'C', 'D']],
    ["!tag_name.all(t, t == 'x')", ['A']],
    ["tag_name.exists_one(t, t in ['x', 'y'])", ['C']],
    ["!tag_name.exists_one(t, t in ['x', 'y'])", ['A', 'B', 'D']],
    ["assignee.exists_one(a, a.startsWith('u'))", ['A', 'C']],
    // an element leaf inside a comprehension over the same relation is its own "some element"
    ["tag_name.exists(t, t == 'y' && tag_name == 'x')", ['A']],
    ["tag_name.all(t, t == 'x' || tag_name == 'y')", ['A', 'B', 'C', 'D']],
    ['tag_name.exists(t, t == name) || size(asset_id) > 0', ['A']],
    // no elements at all
    ['size(report_id) == 0', ['A', 'B', 'C', 'D']],
    ["'r' in report_id", []],
    ["!('r' in report_id)", ['A', 'B', 'C', 'D']],
    ["report_id.all(r, r == 'x')", ['A', 'B', 'C', 'D']],
    ["campaign_reports.exists(r, r == 'x')", []],
    ['campaign_reports.exists_one(r, true)', []],
    // a comprehension variable shadows the field
    ['[1, 2].exists(tag_name, tag_name == 2)', ['A', 'B', 'C', 'D']],
    ["['x'].exists(tag_name, tag_name in ['x'])", ['A', 'B', 'C', 'D']],
    // an absent value is not in any list; a CEL error stays an error
    ['run_id in tag_name', []],
    ['!(run_id in tag_name)', ['A', 'B', 'C', 'D']],
    ["!(metadata['env'] in tag_name)", ['A', 'B']],
  ])('%s', (filter, expected) => expect(annotations(filter)).toEqual(expected));
});

describe('enum values as bare names, strings or numbers', () => {
  it.each([
    'state == ANNOTATION_STATE_OPEN',
    "state == 'ANNOTATION_STATE_OPEN'",
    'state == 1',
    'ANNOTATION_STATE_OPEN == state',
    "state in ['ANNOTATION_STATE_OPEN']",
  ])('%s', (filter) => expect(annotations(filter)).toEqual(['A']));
  it.each([
    ["state in ['ANNOTATION_STATE_OPEN', ANNOTATION_STATE_RESOLVED, 2]", ['A', 'C', 'D']],
    ['state > ANNOTATION_STATE_OPEN', ['C', 'D']],
    ["annotation_type == 'ANNOTATION_TYPE_PHASE'", ['D']],
  ])('%s', (filter, expected) => expect(annotations(filter)).toEqual(expected));
});

describe('strings: exact, case-sensitive, Unicode-safe, no LIKE wildcards', () => {
  it.each([
    ["name == 'alpha'", ['B']],
    ["name.startsWith('Al')", ['A', 'C']],
    ["name.startsWith('al')", ['B']],
    ["name.contains('%')", ['C']],
    ["name.contains('_')", ['C']],
    ["name.endsWith('%_ha')", ['C']],
    ["name.startsWith('😀')", ['D']],
    ["name.endsWith('b')", ['D']],
    ['size(name) == 2', ['D']],
    ["description == 'é'", []],
    ["description == 'e\u0301'", ['D']],
    ["name.matches('^(😀|x)b$')", ['D']],
    ["name.matches('(?i)^alpha$')", ['A', 'B']],
  ])('%s', (filter, expected) => expect(annotations(filter)).toEqual(expected));
});

describe('timestamps are exact to the stored microsecond, literals to the nanosecond', () => {
  it.each([
    ["start_time > timestamp('2024-01-01T00:00:00Z')", ['A', 'C']],
    ["start_time == timestamp('2024-01-01T00:00:00.000001Z')", ['A']],
    ["start_time < timestamp('2024-01-01T00:00:00.0000005Z')", ['B', 'D']],
    ["start_time <= timestamp('2024-01-01T00:00:00.0000005Z')", ['B', 'D']],
    ["start_time > timestamp('2024-01-01T00:00:00.0000005Z')", ['A', 'C']],
    ["start_time >= timestamp('2024-01-01T00:00:00.0000005Z')", ['A', 'C']],
    ["start_time == timestamp('2024-01-01T00:00:00.0000005Z')", []],
    ["start_time != timestamp('2024-01-01T00:00:00.0000005Z')", ['A', 'B', 'C', 'D']],
    ["start_time + duration('500ns') == timestamp('2024-01-01T00:00:00.0000005Z')", ['B', 'D']],
    ["start_time + duration('1ns') > timestamp('2024-01-01T00:00:00.000001Z')", ['A', 'C']],
    ["start_time - duration('1us') == timestamp('2024-01-01T00:00:00Z')", ['A']],
    ["end_time - start_time > duration('1h')", ['C']],
    ["end_time - start_time == duration('-1us')", ['A']],
    ["start_time > timestamp('2024-01-01T10:00:00+10:00')", ['A', 'C']],
  ])('%s', (filter, expected) => expect(annotations(filter)).toEqual(expected));
});

describe('metadata is a map: a missing key is an error, values compare across number types', () => {
  it.each([
    ["metadata['n'] == 3", ['A']],
    ['metadata.n > 3', ['C']],
    ['metadata.n >= 3.0', ['A', 'C']],
    ["metadata['env'] == 'prod'", ['A']],
    ["!(metadata['env'] == 'prod')", ['B']],
    ["metadata['env'] != 'prod'", ['B']],
    ["'env' in metadata", ['A', 'B']],
    ['!has(metadata.env)', ['C', 'D']],
    ["metadata['flag']", ['B']],
    ["metadata['flag'] == true", ['B']],
    ["metadata['env'] == 3", []],
    ["!(metadata['env'] == 3)", ['A', 'B']],
    ["metadata['env'] < 1", []],
    ["!(metadata['env'] < 1)", []],
    ["metadata['env'].startsWith('p')", ['A']],
    ["metadata['env'] in ['dev', 'test']", ['B']],
  ])('%s', (filter, expected) => expect(annotations(filter)).toEqual(expected));
});

describe('booleans and conditionals', () => {
  it.each([
    ['is_archived', ['B']],
    ['is_archived == false', ['A', 'C', 'D']],
    ['pending && !is_archived', []],
    ["state == ANNOTATION_STATE_OPEN ? name == 'Alpha' : name == 'alpha'", ['A', 'B']],
    ['1/0 == 1 || true', ['A', 'B', 'C', 'D']],
    ['1/0 == 1 && false || pending', ['B']],
    ['!(1/0 == 1)', []],
    ['  ', ['A', 'B', 'C', 'D']],
  ])('%s', (filter, expected) => expect(annotations(filter)).toEqual(expected));
});

// A resource shaped like artifacts: records linked through a `messages`
// relation, enums compared by unprefixed names, an include_archived directive.
const GADGET_FIELDS: FilterFields = {
  name: { kind: 'scalar', type: 'string', sql: 't.name' },
  storage: { kind: 'enum', sql: 't.storage', values: { STANDARD: 1, COLD: 2 } },
  links: {
    kind: 'messages',
    typeName: 'GadgetLink',
    rows: { from: 'gadget_links {l}', parentKey: 't.pk', childKey: '{l}.gadget_pk' },
    members: {
      relation: { type: 'int', sql: '{l}.relation', enumValues: { ATTACHED_TO: 1, DERIVED_FROM: 2 } },
      entity_type: { type: 'int', sql: '{l}.entity_type', enumValues: { ANNOTATION: 1, RUN: 2 } },
      entity_id: { type: 'string', sql: '{l}.entity_id' },
      version_id: { type: 'string', sql: '{l}.version_id', nullable: true },
    },
  },
  metadata: {
    kind: 'map',
    rows: { from: 'gadget_metadata {m}', parentKey: 't.pk', childKey: '{m}.gadget_pk' },
    key: '{m}.key',
    value: { kind: 'typed', type: 'string', sql: '{m}.value' },
  },
  include_archived: { kind: 'directive', unlessTrue: 't.archived_date IS NULL' },
};

describe('messages relations, directives and unprefixed enums (a test-only declaration)', () => {
  const db = openDatabase(':memory:');
  beforeAll(() => {
    db.raw.exec(`
      CREATE TABLE gadgets (pk INTEGER PRIMARY KEY, name TEXT NOT NULL, storage INTEGER NOT NULL, archived_date INTEGER);
      CREATE TABLE gadget_links (gadget_pk INTEGER NOT NULL, relation INTEGER NOT NULL, entity_type INTEGER NOT NULL, entity_id TEXT NOT NULL, version_id TEXT);
      CREATE TABLE gadget_metadata (gadget_pk INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL);
      INSERT INTO gadgets VALUES (1, 'g1', 1, NULL), (2, 'g2', 2, NULL), (3, 'g3', 1, 5), (4, 'g4', 2, NULL);
      INSERT INTO gadget_links VALUES (1, 1, 1, 'a1', 'v1'), (1, 2, 2, 'r1', NULL), (2, 1, 2, 'r1', NULL), (3, 1, 1, 'a1', NULL);
      INSERT INTO gadget_metadata VALUES (1, 'env', 'prod'), (2, 'env', 'dev');
    `);
  });
  afterAll(() => db.close());
  const gadgets = (filter: string) => ids(db, GADGET_FIELDS, 'gadgets', filter);

  it.each([
    ["links.exists(l, l.relation == ATTACHED_TO && l.entity_id == 'a1')", ['g1']],
    ["links.exists(l, l.relation == 'ATTACHED_TO' && l.entity_type == 'RUN')", ['g2']],
    ['links.all(l, l.entity_type == RUN)', ['g2', 'g4']],
    ['!links.all(l, l.entity_type == RUN)', ['g1']],
    ['!links.exists(l, l.relation == DERIVED_FROM)', ['g2', 'g4']],
    ['links.exists_one(l, l.relation == ATTACHED_TO)', ['g1', 'g2']],
    ['links.exists(l, has(l.version_id))', ['g1']],
    ["links.exists(l, l.version_id == null && l.entity_id == 'r1')", ['g1', 'g2']],
    ["links.exists(l, l.entity_id == 'r1' && links.exists(k, k.entity_id == 'a1'))", ['g1']],
    ['storage == STANDARD', ['g1']],
    ["storage == 'COLD'", ['g2', 'g4']],
    ['storage == 2', ['g2', 'g4']],
    ["metadata['env'] == 'prod'", ['g1']],
    ["metadata.env.startsWith('d')", ['g2']],
  ])('%s', (filter, expected) => expect(gadgets(filter)).toEqual(expected));

  it('applies the directive default unless the filter sets it', () => {
    expect(gadgets('')).toEqual(['g1', 'g2', 'g4']);
    expect(gadgets("name != 'x'")).toEqual(['g1', 'g2', 'g4']);
    expect(gadgets('include_archived')).toEqual(['g1', 'g2', 'g3', 'g4']);
    expect(gadgets('include_archived == true && storage == STANDARD')).toEqual(['g1', 'g3']);
    expect(gadgets('storage == STANDARD && true == include_archived')).toEqual(['g1', 'g3']);
    expect(gadgets('include_archived == false')).toEqual(['g1', 'g2', 'g4']);
  });

  it('rejects a directive anywhere but a top-level condition', () => {
    expect(() => gadgets("include_archived || name == 'g3'")).toThrow(/'include_archived' can only be used as a top-level condition/);
    expect(() => gadgets('!(include_archived && true)')).toThrow(ApiError);
  });

  it('rejects an unknown unprefixed enum name with the allowed ones', () => {
    expect(() => gadgets("links.exists(l, l.relation == 'LINKED')")).toThrow(
      /'LINKED' is not a value of l.relation; expected one of: ATTACHED_TO, DERIVED_FROM/,
    );
  });
});
