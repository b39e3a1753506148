// The test-report tables — test_reports, test_steps, test_measurements, their
// metadata and channel names, and test_report_imports (the pending mark of an
// ATML import) — are written here and nowhere else: by the API's services
// (create, update, delete), by the ATML import (copied from its staging file
// in short transactions behind the pending mark) and by sync (remote versions
// upserted so that an unchanged re-read writes nothing, ids the remote gave,
// adoption of an import's children). Values are as stored (epoch micros, enum
// numbers, step path keys).
import type { MetadataValueInput } from '../../../src-shared/api/metadata';
import { replaceList, replaceMetadata } from '../../db/childRows';
import type { Db, SqlValue } from '../../db/database';
import { recordTable } from '../../db/recordTable';

type Values<K extends string> = Readonly<Partial<Record<K, SqlValue>>>;

const columnsOf = (values: Readonly<Record<string, SqlValue | undefined>>) => Object.keys(values).filter((c) => values[c] !== undefined);
const valuesOf = (values: Readonly<Record<string, SqlValue | undefined>>, columns: readonly string[]) =>
  columns.map((c) => values[c] as SqlValue);

function insertRow(
  db: Db,
  table: 'test_reports' | 'test_steps' | 'test_measurements',
  row: Readonly<Record<string, SqlValue | undefined>>,
  upsert = '',
): { pk: number; changes: number } {
  const columns = columnsOf(row);
  const info = db.run(
    `INSERT INTO ${table}(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})${upsert}`,
    valuesOf(row, columns),
  );
  return { pk: Number(info.lastInsertRowid), changes: info.changes };
}

function setColumns(
  db: Db,
  table: 'test_reports' | 'test_steps' | 'test_measurements',
  pk: number,
  values: Readonly<Record<string, SqlValue | undefined>>,
): void {
  const columns = columnsOf(values);
  if (columns.length)
    db.run(`UPDATE ${table} SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE pk = ?`, [...valuesOf(values, columns), pk]);
}

/** The DO UPDATE part of an upsert that writes `columns` only when one of them differs (an unchanged re-read writes nothing). */
const updateIfChanged = (table: string, columns: readonly string[]) =>
  ` ON CONFLICT(id) DO UPDATE SET ${columns.map((c) => `${c} = excluded.${c}`).join(', ')} WHERE ${columns.map((c) => `${table}.${c} IS NOT excluded.${c}`).join(' OR ')}`;

// ---- reports ---------------------------------------------------------------------

type ReportColumn =
  | 'id'
  | 'organization_id'
  | 'status'
  | 'name'
  | 'test_system_name'
  | 'test_case'
  | 'start_time'
  | 'end_time'
  | 'serial_number'
  | 'part_number'
  | 'system_operator'
  | 'run_id'
  | 'archived_date'
  | 'source_remote_file_id'
  | 'created_by_user_id'
  | 'modified_by_user_id'
  | 'created_date'
  | 'modified_date'
  | 'overall_modified_date';

/** Inserts a report; returns its pk. */
export const insertTestReportRow = (db: Db, row: Values<ReportColumn>): number => insertRow(db, 'test_reports', row).pk;

export const setTestReportColumns = (db: Db, pk: number, values: Values<Exclude<ReportColumn, 'id' | 'organization_id'>>): void =>
  setColumns(db, 'test_reports', pk, values);

/** A write to a report, or to one of its steps or measurements (deletes included), at `now`: its overall modified date. */
export function reportModified(db: Db, reportPk: number, now: number): void {
  db.run('UPDATE test_reports SET overall_modified_date = ? WHERE pk = ?', [now, reportPk]);
}

/** The remote's overall modified date, written only when it differs (a bookkeeping date: an equal one writes nothing). */
export function keepOverallModifiedDate(db: Db, reportPk: number, overall: number): void {
  db.run('UPDATE test_reports SET overall_modified_date = ? WHERE pk = ? AND overall_modified_date IS NOT ?', [overall, reportPk, overall]);
}

export const replaceTestReportMetadata = (db: Db, pk: number, metadata: readonly MetadataValueInput[], field = 'metadata'): boolean =>
  replaceMetadata(db, 'test_report_metadata', 'report_pk', pk, metadata, field);

/** Hard delete; the report's steps and measurements (and their metadata) cascade. */
export function deleteTestReportRow(db: Db, pk: number): void {
  db.run('DELETE FROM test_reports WHERE pk = ?', [pk]);
}

/** A report made offline takes the id the remote gave it; its steps and measurements name it. */
/** A report's id is held by its steps and measurements too. */
export const testReportRows = recordTable('test_reports', (db, fromId, toId) => {
  db.run('UPDATE test_reports SET id = ? WHERE id = ?', [toId, fromId]);
  db.run('UPDATE test_steps SET test_report_id = ? WHERE test_report_id = ?', [toId, fromId]);
  db.run('UPDATE test_measurements SET test_report_id = ? WHERE test_report_id = ?', [toId, fromId]);
});

/** An uploaded file made offline took the id the remote gave it: the reports imported from it name that id. */
export function renameTestReportSourceFile(db: Db, fromId: string, toId: string): void {
  db.run('UPDATE test_reports SET source_remote_file_id = ? WHERE source_remote_file_id = ?', [toId, fromId]);
}

// ---- steps -----------------------------------------------------------------------

type StepColumn =
  | 'id'
  | 'report_pk'
  | 'test_report_id'
  | 'organization_id'
  | 'parent_step_id'
  | 'name'
  | 'description'
  | 'step_type'
  | 'path_key'
  | 'status'
  | 'start_time'
  | 'end_time'
  | 'error_code'
  | 'error_message'
  | 'created_by_user_id'
  | 'modified_by_user_id'
  | 'created_date'
  | 'modified_date';
const STEP_UPDATE = updateIfChanged('test_steps', [
  'parent_step_id',
  'name',
  'description',
  'step_type',
  'path_key',
  'status',
  'start_time',
  'end_time',
  'error_code',
  'error_message',
]);

/** Inserts a step; returns its pk. */
export const insertTestStepRow = (db: Db, row: Values<StepColumn>): number => insertRow(db, 'test_steps', row).pk;

/** A remote step, upserted by id (its synced columns written only when one differs). Returns whether the row changed. */
export const upsertRemoteTestStep = (db: Db, row: Values<StepColumn> & { id: string }): boolean =>
  insertRow(db, 'test_steps', row, STEP_UPDATE).changes > 0;

export const setTestStepColumns = (
  db: Db,
  pk: number,
  values: Values<Exclude<StepColumn, 'id' | 'report_pk' | 'test_report_id' | 'organization_id'>>,
): void => setColumns(db, 'test_steps', pk, values);

export const replaceTestStepMetadata = (db: Db, pk: number, metadata: readonly MetadataValueInput[], field = 'metadata'): boolean =>
  replaceMetadata(db, 'test_step_metadata', 'step_pk', pk, metadata, field);

/** Hard delete of a step and its descendants; their measurements cascade. */
export function deleteTestStepSubtree(db: Db, pk: number, reportPk: number): void {
  db.run(
    `WITH RECURSIVE subtree(pk, id) AS (
       SELECT pk, id FROM test_steps WHERE pk = ?
       UNION SELECT s.pk, s.id FROM test_steps s JOIN subtree ON s.parent_step_id = subtree.id AND s.report_pk = ?
     )
     DELETE FROM test_steps WHERE pk IN (SELECT pk FROM subtree)`,
    [pk, reportPk],
  );
}

/** Every step of a report; the measurements cascade. */
export function deleteReportSteps(db: Db, reportPk: number): void {
  db.run('DELETE FROM test_steps WHERE report_pk = ?', [reportPk]);
}

/** A step takes the id the remote gave it; its children and measurements name it (only within `reportPk` when given). */
export function renameTestStep(db: Db, fromId: string, toId: string, reportPk?: number): void {
  db.run('UPDATE test_steps SET id = ? WHERE id = ?', [toId, fromId]);
  if (reportPk === undefined) {
    db.run('UPDATE test_steps SET parent_step_id = ? WHERE parent_step_id = ?', [toId, fromId]);
    db.run('UPDATE test_measurements SET test_step_id = ? WHERE test_step_id = ?', [toId, fromId]);
  } else {
    db.run('UPDATE test_steps SET parent_step_id = ? WHERE report_pk = ? AND parent_step_id = ?', [toId, reportPk, fromId]);
    db.run('UPDATE test_measurements SET test_step_id = ? WHERE report_pk = ? AND test_step_id = ?', [toId, reportPk, fromId]);
  }
}

export const testStepRows = recordTable('test_steps', (db, fromId, toId) => renameTestStep(db, fromId, toId));

// ---- measurements ------------------------------------------------------------------

/** The columns of a measurement's own values (its parents, authors and dates aside). */
const MEASUREMENT_VALUE_COLUMNS = [
  'name',
  'measurement_type',
  'value_field',
  'numeric_value',
  'string_value',
  'boolean_value',
  'unit_id',
  'unit_abbreviated_name',
  'bounds_field',
  'bound_min',
  'bound_max',
  'expected_value',
  'passed',
  'timestamp',
  'description',
] as const;
type MeasurementColumn =
  | 'id'
  | 'report_pk'
  | 'step_pk'
  | 'test_report_id'
  | 'test_step_id'
  | 'organization_id'
  | (typeof MEASUREMENT_VALUE_COLUMNS)[number]
  | 'created_by_user_id'
  | 'modified_by_user_id'
  | 'created_date'
  | 'modified_date';
const MEASUREMENT_UPDATE = updateIfChanged('test_measurements', ['step_pk', 'test_step_id', ...MEASUREMENT_VALUE_COLUMNS]);

/** Inserts a measurement; returns its pk. */
export const insertTestMeasurementRow = (db: Db, row: Values<MeasurementColumn>): number => insertRow(db, 'test_measurements', row).pk;

/** A remote measurement, upserted by id (its step and values written only when one differs). Returns whether the row changed. */
export const upsertRemoteTestMeasurement = (db: Db, row: Values<MeasurementColumn> & { id: string }): boolean =>
  insertRow(db, 'test_measurements', row, MEASUREMENT_UPDATE).changes > 0;

export const setTestMeasurementColumns = (
  db: Db,
  pk: number,
  values: Values<(typeof MEASUREMENT_VALUE_COLUMNS)[number] | 'modified_date' | 'modified_by_user_id'>,
): void => setColumns(db, 'test_measurements', pk, values);

export const replaceTestMeasurementChannelNames = (db: Db, pk: number, channelNames: readonly string[]): boolean =>
  replaceList(db, 'test_measurement_channel_names', 'measurement_pk', 'channel_name', pk, channelNames);

export const replaceTestMeasurementMetadata = (db: Db, pk: number, metadata: readonly MetadataValueInput[], field = 'metadata'): boolean =>
  replaceMetadata(db, 'test_measurement_metadata', 'measurement_pk', pk, metadata, field);

export function deleteTestMeasurementRow(db: Db, pk: number): void {
  db.run('DELETE FROM test_measurements WHERE pk = ?', [pk]);
}

/** A measurement takes the id the remote gave it. */
export const testMeasurementRows = recordTable('test_measurements');

// ---- ATML imports: copies from the staging file, behind the pending mark -------------------

/** The import of the report at `reportPk` is under way: it and everything under it stay hidden (scope.ts). */
export function markImportPending(db: Db, reportPk: number): void {
  db.run('INSERT INTO test_report_imports(report_pk) VALUES (?)', [reportPk]);
}

/** The import is whole (or gone): the report appears. */
export function clearImportPending(db: Db, reportPk: number): void {
  db.run('DELETE FROM test_report_imports WHERE report_pk = ?', [reportPk]);
}

export const pendingImportReportPks = (db: Db): number[] =>
  db.all<{ report_pk: number }>('SELECT report_pk FROM test_report_imports').map((r) => r.report_pk);

/** At most `limit` measurements of a report deleted; returns how many. */
export const deleteReportMeasurementsUpTo = (db: Db, reportId: string, limit: number): number =>
  db.run('DELETE FROM test_measurements WHERE pk IN (SELECT pk FROM test_measurements WHERE test_report_id = ? LIMIT ?)', [reportId, limit])
    .changes;

/** At most `limit` steps of a report deleted; returns how many. */
export const deleteReportStepsUpTo = (db: Db, reportPk: number, limit: number): number =>
  db.run('DELETE FROM test_steps WHERE pk IN (SELECT pk FROM test_steps WHERE report_pk = ? LIMIT ?)', [reportPk, limit]).changes;

// Statements over the `staging` schema (the ATTACHed staging file of importStaging.ts) are prepared by each call,
// never cached: they are invalid once it is detached.

/** The staged report (and its metadata) copied in; returns its pk, or undefined when the file staged none. */
export function insertStagedReport(
  db: Db,
  r: { id: string; organizationId: string; remoteFileId: string | null; userId: string; now: number },
): number | undefined {
  const raw = db.raw;
  const info = raw
    .prepare(
      `INSERT INTO main.test_reports(id, organization_id, status, name, test_system_name, test_case, start_time, end_time, serial_number,
         part_number, system_operator, run_id, source_remote_file_id, created_by_user_id, modified_by_user_id, created_date, modified_date)
       SELECT ?, ?, status, name, test_system_name, test_case, start_time, end_time, serial_number, part_number, system_operator, '', ?, ?, ?, ?, ?
       FROM staging.report LIMIT 1`,
    )
    .run(r.id, r.organizationId, r.remoteFileId, r.userId, r.userId, r.now, r.now);
  if (info.changes !== 1) return undefined;
  const pk = Number(info.lastInsertRowid);
  raw
    .prepare(
      `INSERT INTO main.test_report_metadata(report_pk, key, type, string_value, number_value, boolean_value, position)
       SELECT ?, key, type, string_value, number_value, boolean_value, position FROM staging.report_metadata ORDER BY position`,
    )
    .run(pk);
  return pk;
}

/** What every copied row of one import shares. */
export interface StagedCopy {
  readonly reportPk: number;
  readonly reportId: string;
  readonly organizationId: string;
  readonly userId: string;
  readonly now: number;
}

/**
 * Copies the staged steps with keys in [lo, hi] (and their metadata), each at pk `stepBase + key` (explicit pks,
 * so children reference parents by arithmetic).
 */
export function stagedStepCopier(db: Db, c: StagedCopy): (stepBase: number, lo: number, hi: number) => void {
  const insertSteps = db.raw.prepare(
    `INSERT INTO main.test_steps(pk, id, report_pk, test_report_id, organization_id, parent_step_id, name, description, step_type,
       path_key, status, start_time, end_time, error_code, error_message, created_by_user_id, modified_by_user_id, created_date, modified_date)
     SELECT :stepBase + s.key, s.id, :reportPk, :reportId, :organizationId, COALESCE(p.id, ''), s.name, s.description, s.step_type,
       s.path_key, s.status, s.start_time, s.end_time, s.error_code, s.error_message, :userId, :userId, :now, :now
     FROM staging.steps s LEFT JOIN staging.steps p ON p.key = s.parent_key
     WHERE s.key BETWEEN :lo AND :hi ORDER BY s.key`,
  );
  const insertStepMetadata = db.raw.prepare(
    `INSERT INTO main.test_step_metadata(step_pk, key, type, string_value, number_value, boolean_value, position)
     SELECT :stepBase + m.step_key, m.key, m.type, m.string_value, m.number_value, m.boolean_value, m.position
     FROM staging.step_metadata m WHERE m.step_key BETWEEN :lo AND :hi ORDER BY m.step_key, m.position`,
  );
  return (stepBase, lo, hi) => {
    insertSteps.run({
      stepBase,
      reportPk: c.reportPk,
      reportId: c.reportId,
      organizationId: c.organizationId,
      userId: c.userId,
      now: c.now,
      lo,
      hi,
    });
    insertStepMetadata.run({ stepBase, lo, hi });
  };
}

/** Copies the staged measurements with seqs in [lo, hi] (and their metadata), each at pk `measurementBase + seq`, under step `stepBase + step_key`. */
export function stagedMeasurementCopier(
  db: Db,
  c: StagedCopy,
  stepBase: number,
): (measurementBase: number, lo: number, hi: number) => void {
  const insertMeasurements = db.raw.prepare(
    `INSERT INTO main.test_measurements(pk, id, report_pk, step_pk, test_report_id, test_step_id, organization_id, measurement_type, name,
       value_field, numeric_value, string_value, boolean_value, unit_id, unit_abbreviated_name, bounds_field, bound_min, bound_max,
       expected_value, passed, timestamp, description, created_by_user_id, modified_by_user_id, created_date, modified_date)
     SELECT :measurementBase + m.seq, m.id, :reportPk, :stepBase + m.step_key, :reportId, s.id, :organizationId, m.measurement_type, m.name,
       m.value_field, m.numeric_value, m.string_value, m.boolean_value, CASE WHEN m.unit IS NULL THEN NULL ELSE '' END, m.unit,
       m.bounds_field, m.bound_min, m.bound_max, m.expected_value, m.passed, m.timestamp, m.description, :userId, :userId, :now, :now
     FROM staging.measurements m JOIN staging.steps s ON s.key = m.step_key
     WHERE m.seq BETWEEN :lo AND :hi ORDER BY m.seq`,
  );
  const insertMeasurementMetadata = db.raw.prepare(
    `INSERT INTO main.test_measurement_metadata(measurement_pk, key, type, string_value, number_value, boolean_value, position)
     SELECT :measurementBase + md.measurement_seq, md.key, md.type, md.string_value, md.number_value, md.boolean_value, md.position
     FROM staging.measurement_metadata md WHERE md.measurement_seq BETWEEN :lo AND :hi ORDER BY md.measurement_seq, md.position`,
  );
  return (measurementBase, lo, hi) => {
    insertMeasurements.run({
      measurementBase,
      stepBase,
      reportPk: c.reportPk,
      reportId: c.reportId,
      organizationId: c.organizationId,
      userId: c.userId,
      now: c.now,
      lo,
      hi,
    });
    insertMeasurementMetadata.run({ measurementBase, lo, hi });
  };
}
