// Random annotation datasets for the filter tests: rows written into a real
// SQLite file through the production schema, and the same rows as CEL
// evaluation contexts for the in-memory reference.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { openDatabase, type Db } from '../../../src-main/db/database';

export const ORGANIZATION_ID = 'org-filter-tests';

/**
 * Text pieces: ASCII, a precomposed and a decomposed é (combining mark), astral
 * characters, LIKE wildcards and a quote. Nothing in U+E000-U+FFFF: the CEL
 * library orders strings by UTF-16 unit, CEL and SQLite by code point, and the
 * two orders only disagree between that range and astral characters.
 */
export const TEXT_PIECES = ['a', 'b', 'A', 'é', 'e\u0301', 'ß', '😀', '𝒜', '%', '_', "'", ' '];

export const USERS = [
  { id: 'u1', name: 'alice' },
  { id: 'u2', name: 'bob' },
];
/** u3 has no users row: the assignee is then only known by id. */
export const ASSIGNEES = ['', 'u1', 'u2', 'u3'];
export const ASSETS = [
  { id: 'as1', name: 'Rover 😀' },
  { id: 'as2', name: 'rover' },
  { id: 'as3', name: 'Élan' },
];
export const TAGS = ['a', 'b', 'ab', 'é', '😀', 'A'];
export const METADATA_KEYS = ['env', 'n', 'flag', 'k é'];
export const CREATORS = ['u1', 'u2'];
export const RUNS = ['run-a', 'run-b'];

const BASE_MS = Date.UTC(2024, 0, 1);
/** Minute offsets and millisecond jitters chosen to produce ties and near-ties. */
const MINUTES = [0, 1, 30, 60, 61, 1440];
const JITTER_MS = [0, 1, 999];
const LENGTHS_MS = [0, 1000, 60_000, 3_600_000, 3_600_001];

export type MetadataValue = string | number | boolean;

export interface AnnotationRowData {
  id: string;
  name: string;
  description: string;
  startMs: number;
  endMs: number;
  createdMs: number;
  modifiedMs: number;
  runId: string | null;
  state: number | null;
  annotationType: number;
  pending: boolean;
  archivedMs: number | null;
  createdBy: string;
  conditionVersion: string | null;
  assignee: string;
  tags: string[];
  assetIds: string[];
  metadata: Record<string, MetadataValue>;
}

export const textArb = fc.array(fc.constantFrom(...TEXT_PIECES), { maxLength: 3 }).map((p) => p.join(''));
export const timeMsArb = fc.tuple(fc.constantFrom(...MINUTES), fc.constantFrom(...JITTER_MS)).map(([m, j]) => BASE_MS + m * 60_000 + j);
export const durationMsArb = fc.constantFrom(...LENGTHS_MS);
export const metadataValueArb: fc.Arbitrary<MetadataValue> = fc.oneof(textArb, fc.constantFrom(0, 1, -1, 1.5, 2, 1e15 + 1), fc.boolean());

const rowArb = (index: number): fc.Arbitrary<AnnotationRowData> =>
  fc
    .record({
      name: textArb,
      description: textArb,
      startMs: timeMsArb,
      lengthMs: durationMsArb,
      createdMs: timeMsArb,
      modifiedMs: timeMsArb,
      runId: fc.option(fc.constantFrom(...RUNS), { nil: null }),
      state: fc.option(fc.constantFrom(1, 2, 3), { nil: null }),
      annotationType: fc.constantFrom(1, 2),
      pending: fc.boolean(),
      archivedMs: fc.option(timeMsArb, { nil: null }),
      createdBy: fc.constantFrom(...CREATORS),
      conditionVersion: fc.option(fc.constantFrom(...RUNS, 'cv-1'), { nil: null }),
      assignee: fc.constantFrom(...ASSIGNEES),
      tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
      assetIds: fc.uniqueArray(fc.constantFrom(...ASSETS.map((a) => a.id)), { maxLength: 2 }),
      metadata: fc.dictionary(fc.constantFrom(...METADATA_KEYS), metadataValueArb, { maxKeys: 3 }),
    })
    .map(({ lengthMs, ...r }) => ({ ...r, id: `ann-${String(index).padStart(3, '0')}`, endMs: r.startMs + lengthMs }));

export const datasetArb: fc.Arbitrary<AnnotationRowData[]> = fc
  .integer({ min: 0, max: 24 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => rowArb(i))))
  .map((rows) => rows as AnnotationRowData[]);

export interface FilterTestDb {
  db: Db;
  close(): void;
}

/** A fresh migrated database file with the organization, users and assets the datasets reference. */
export function openFilterTestDb(): FilterTestDb {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-filter-'));
  const db = openDatabase(join(dir, 'filter.sqlite'));
  db.tx(() => {
    db.run('INSERT INTO organizations(id, name, created_date) VALUES (?, ?, 0)', [ORGANIZATION_ID, 'Filter tests']);
    for (const u of USERS) db.run('INSERT INTO users(id, user_name, created_date, modified_date) VALUES (?, ?, 0, 0)', [u.id, u.name]);
    for (const a of ASSETS) {
      db.run(
        'INSERT INTO assets(id, organization_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id) VALUES (?, ?, ?, 0, ?, 0, ?)',
        [a.id, ORGANIZATION_ID, a.name, 'u1', 'u1'],
      );
    }
  });
  return {
    db,
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const us = (ms: number | null) => (ms === null ? null : BigInt(ms) * 1000n);

/** Replaces every annotation in the database with the dataset's rows. */
export function loadDataset(db: Db, rows: readonly AnnotationRowData[]): void {
  db.tx(() => {
    db.run('DELETE FROM annotations');
    const insert = db.raw.prepare(
      `INSERT INTO annotations(id, organization_id, name, description, start_time, end_time, created_by_user_id, modified_by_user_id,
         created_date, modified_date, run_id, state, assigned_to_user_id, annotation_type, pending, archived_date, created_by_rule_condition_version_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const tag = db.raw.prepare('INSERT INTO annotation_tags(annotation_pk, tag_name, position) VALUES (?, ?, ?)');
    const asset = db.raw.prepare('INSERT INTO annotation_assets(annotation_pk, asset_id, position) VALUES (?, ?, ?)');
    const meta = db.raw.prepare(
      'INSERT INTO annotation_metadata(annotation_pk, key, type, string_value, number_value, boolean_value, position) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    for (const r of rows) {
      const pk = insert.run(
        r.id,
        ORGANIZATION_ID,
        r.name,
        r.description,
        us(r.startMs),
        us(r.endMs),
        r.createdBy,
        r.createdBy,
        us(r.createdMs),
        us(r.modifiedMs),
        r.runId,
        r.state,
        r.assignee,
        r.annotationType,
        r.pending ? 1 : 0,
        us(r.archivedMs),
        r.conditionVersion,
      ).lastInsertRowid;
      r.tags.forEach((t, i) => tag.run(pk, t, i));
      r.assetIds.forEach((a, i) => asset.run(pk, a, i));
      Object.entries(r.metadata).forEach(([k, v], i) => {
        if (typeof v === 'string') meta.run(pk, k, 1, v, null, null, i);
        else if (typeof v === 'number') meta.run(pk, k, 2, null, v, null, i);
        else meta.run(pk, k, 3, null, null, v ? 1 : 0, i);
      });
    }
  });
}

/** The row as the in-memory reference sees it (relations as lists, absent values as null). */
export function referenceContext(r: AnnotationRowData): Record<string, unknown> {
  const date = (ms: number | null) => (ms === null ? null : new Date(ms));
  const user = USERS.find((u) => u.id === r.assignee);
  return {
    annotation_id: r.id,
    name: r.name,
    description: r.description,
    start_time: date(r.startMs),
    end_time: date(r.endMs),
    created_date: date(r.createdMs),
    modified_date: date(r.modifiedMs),
    run_id: r.runId,
    created_by_user_id: r.createdBy,
    created_by_rule_condition_version_id: r.conditionVersion,
    state: r.state === null ? null : BigInt(r.state),
    annotation_type: BigInt(r.annotationType),
    pending: r.pending,
    archived_date: date(r.archivedMs),
    is_archived: r.archivedMs !== null,
    tag_name: r.tags,
    asset_id: r.assetIds,
    asset_name: r.assetIds.map((id) => ASSETS.find((a) => a.id === id)!.name),
    assignee: user ? [r.assignee, user.name] : [r.assignee],
    metadata: r.metadata,
    rule_id: [],
    report_id: [],
    campaign_reports: [],
  };
}
