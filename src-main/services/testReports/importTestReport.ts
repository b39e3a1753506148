// ImportTestReport: an uploaded TestStand ATML file -> a report with its steps
// and measurements, atomically.
//
// 1. stream-parse the stored file into a private staging database (async;
//    nothing touches the shared connection, memory stays bounded);
// 2. synchronously, on the shared connection: ATTACH the staging file, copy
//    every row with INSERT ... SELECT in ONE transaction (staging UUIDs kept,
//    parent keys resolved to parent ids by join, pks derived from the
//    staging keys), DETACH;
// 3. delete the staging file.
// Any parse error is INVALID_ARGUMENT with the parser's reason, and nothing is
// written; no await happens between ATTACH and DETACH, so no other request can
// interleave with the copy.
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestReport } from '../../../src-shared/api/testReports';
import { nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import type { RequestContext } from '../../engine';
import { contentFilePath } from '../remoteFiles/contentStore';
import { reportWrite } from '../writeScope';
import { findVisibleRemoteFile } from '../remoteFiles/remoteFileRows';
import { AtmlParseError, parseAtml } from './atmlParser';
import { ImportStaging, removeStaleStagingFiles, stagingPath } from './importStaging';
import { loadReports } from './testReportRows';

const READ_CHUNK_BYTES = 256 * 1024;

export async function importTestReport(ctx: RequestContext, remoteFileId: string): Promise<{ testReport: TestReport }> {
  const file = findVisibleRemoteFile(ctx, remoteFileId);
  if (!file.content_path) throw ApiError.failedPrecondition(`remote file ${file.id} has no uploaded content to import`);
  const source = contentFilePath(ctx.engine.dataDir, file.content_path);
  if (!existsSync(source)) throw ApiError.failedPrecondition(`the content of remote file ${file.id} is missing from the data directory`);

  const tmpDir = join(ctx.engine.dataDir, 'tmp');
  removeStaleStagingFiles(tmpDir);
  const staging = new ImportStaging(stagingPath(tmpDir, randomUUID()));
  try {
    const stream = createReadStream(source, { highWaterMark: READ_CHUNK_BYTES });
    try {
      await parseAtml(stream, staging.sink);
    } catch (e) {
      if (e instanceof AtmlParseError) {
        throw ApiError.invalid('remote_file_id', `remote file ${file.id} ('${file.file_name}') is not a TestStand ATML report: ${e.message}`);
      }
      throw e;
    } finally {
      stream.destroy();
    }
    staging.finish();
    const pk = copyStagedReport(ctx, staging.path, file.organization_id, file.id);
    return { testReport: loadReports(ctx.db, [pk])[0] };
  } finally {
    staging.remove();
  }
}

/** Copies a finished staging file into the real tables in one transaction; returns the new report's pk. */
export function copyStagedReport(ctx: RequestContext, stagingPath: string, organizationId: string, remoteFileId: string | null): number {
  const { db, caller } = ctx;
  const raw = db.raw;
  // ATTACH/DETACH are not allowed inside a transaction; both sit right around it, with no await in between.
  // A staging schema left attached by an earlier failure would block every later import: drop it first.
  if ((raw.prepare('PRAGMA database_list').all() as { name: string }[]).some((d) => d.name === 'staging')) raw.prepare('DETACH DATABASE staging').run();
  raw.prepare('ATTACH DATABASE ? AS staging').run(stagingPath);
  try {
    return db.tx(() => {
      const now = nowMicros();
      const reportId = randomUUID();
      // Statements over `staging` are prepared here, never cached: they are invalid once it is detached.
      const info = raw
        .prepare(
          `INSERT INTO main.test_reports(id, organization_id, status, name, test_system_name, test_case, start_time, end_time, serial_number,
             part_number, system_operator, run_id, source_remote_file_id, created_by_user_id, modified_by_user_id, created_date, modified_date)
           SELECT ?, ?, status, name, test_system_name, test_case, start_time, end_time, serial_number, part_number, system_operator, '', ?, ?, ?, ?, ?
           FROM staging.report LIMIT 1`,
        )
        .run(reportId, organizationId, remoteFileId, caller.userId, caller.userId, now, now);
      if (info.changes !== 1) throw ApiError.invalid('remote_file_id', 'the file holds no test report');
      const reportPk = Number(info.lastInsertRowid);
      raw
        .prepare(
          `INSERT INTO main.test_report_metadata(report_pk, key, type, string_value, number_value, boolean_value, position)
           SELECT ?, key, type, string_value, number_value, boolean_value, position FROM staging.report_metadata ORDER BY position`,
        )
        .run(reportPk);
      // Explicit pks, increasing with the parser's key / arrival seq (so pk order = document order) above every
      // existing pk: child rows then reference their parents by arithmetic, without looking ids up.
      const stepBase = (raw.prepare('SELECT COALESCE(MAX(pk), 0) AS m FROM main.test_steps').get() as { m: number }).m + 1;
      const measurementBase = (raw.prepare('SELECT COALESCE(MAX(pk), 0) AS m FROM main.test_measurements').get() as { m: number }).m;
      raw
        .prepare(
          `INSERT INTO main.test_steps(pk, id, report_pk, test_report_id, organization_id, parent_step_id, name, description, step_type,
             path_key, status, start_time, end_time, error_code, error_message, created_by_user_id, modified_by_user_id, created_date, modified_date)
           SELECT :stepBase + s.key, s.id, :reportPk, :reportId, :organizationId, COALESCE(p.id, ''), s.name, s.description, s.step_type,
             s.path_key, s.status, s.start_time, s.end_time, s.error_code, s.error_message, :userId, :userId, :now, :now
           FROM staging.steps s LEFT JOIN staging.steps p ON p.key = s.parent_key
           ORDER BY s.key`,
        )
        .run({ stepBase, reportPk, reportId, organizationId, userId: caller.userId, now });
      raw
        .prepare(
          `INSERT INTO main.test_step_metadata(step_pk, key, type, string_value, number_value, boolean_value, position)
           SELECT :stepBase + m.step_key, m.key, m.type, m.string_value, m.number_value, m.boolean_value, m.position
           FROM staging.step_metadata m ORDER BY m.step_key, m.position`,
        )
        .run({ stepBase });
      raw
        .prepare(
          `INSERT INTO main.test_measurements(pk, id, report_pk, step_pk, test_report_id, test_step_id, organization_id, measurement_type, name,
             value_field, numeric_value, string_value, boolean_value, unit_id, unit_abbreviated_name, bounds_field, bound_min, bound_max,
             expected_value, passed, timestamp, description, created_by_user_id, modified_by_user_id, created_date, modified_date)
           SELECT :measurementBase + m.seq, m.id, :reportPk, :stepBase + m.step_key, :reportId, s.id, :organizationId, m.measurement_type, m.name,
             m.value_field, m.numeric_value, m.string_value, m.boolean_value, CASE WHEN m.unit IS NULL THEN NULL ELSE '' END, m.unit,
             m.bounds_field, m.bound_min, m.bound_max, m.expected_value, m.passed, m.timestamp, m.description, :userId, :userId, :now, :now
           FROM staging.measurements m JOIN staging.steps s ON s.key = m.step_key
           ORDER BY m.seq`,
        )
        .run({ measurementBase, stepBase, reportPk, reportId, organizationId, userId: caller.userId, now });
      raw
        .prepare(
          `INSERT INTO main.test_measurement_metadata(measurement_pk, key, type, string_value, number_value, boolean_value, position)
           SELECT :measurementBase + md.measurement_seq, md.key, md.type, md.string_value, md.number_value, md.boolean_value, md.position
           FROM staging.measurement_metadata md JOIN staging.measurements m ON m.seq = md.measurement_seq JOIN staging.steps s ON s.key = m.step_key
           ORDER BY md.measurement_seq, md.position`,
        )
        .run({ measurementBase });
      // A sync replica appends its outbox entry here, in the import's own transaction (writeScope.ts).
      reportWrite({ testReport: loadReports(db, [reportPk])[0] });
      return reportPk;
    });
  } finally {
    raw.prepare('DETACH DATABASE staging').run();
  }
}
