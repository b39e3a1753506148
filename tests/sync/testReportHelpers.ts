// Test-report sync kit: an offline import of the real ATML sample, and a
// comparable view of every report with its steps and measurements.
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../src-main/db/database';
import type { Replica } from './helpers';

export const SAMPLE = join(__dirname, '../fixtures/teststand/demo_test_report.xml');

/** Uploads the sample (as the HTTP adapter would hand it over: a temp file that the upload moves away) and imports it, offline. */
export async function importSample(r: Replica): Promise<{ reportId: string; remoteFileId: string; entityId: string }> {
  const tmp = join(r.dir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const path = join(tmp, `upload-${randomUUID()}`);
  copyFileSync(SAMPLE, path);
  const entityId = randomUUID();
  const { remoteFile } = await r.call('UploadRemoteFile', {
    entityId,
    entityType: 'test_reports',
    file: { path, fileName: 'demo_test_report.xml', mimeType: 'application/xml', encoding: '', size: statSync(path).size },
  });
  const { testReport } = await r.call('ImportTestReport', { remoteFileId: remoteFile.remoteFileId });
  return { reportId: testReport.testReportId, remoteFileId: remoteFile.remoteFileId, entityId };
}

/** Per report (by id): its fields, and its steps and measurements as comparable lists. */
export function reportsOf(db: Db) {
  const out: Record<string, { name: string; serial: string; archived: number; steps: string[]; measurements: string[] }> = {};
  for (const r of db.all<{ pk: number; id: string; name: string; serial_number: string; archived: number }>(
    'SELECT pk, id, name, serial_number, archived_date IS NOT NULL AS archived FROM test_reports ORDER BY id',
  )) {
    out[r.id] = {
      name: r.name,
      serial: r.serial_number,
      archived: r.archived,
      steps: db
        .all<{ v: string }>(
          "SELECT id || ' ' || step_path_text(path_key) || ' ' || name || ' ' || parent_step_id || ' ' || description AS v FROM test_steps WHERE report_pk = ? ORDER BY path_key, pk",
          [r.pk],
        )
        .map((x) => x.v),
      measurements: db
        .all<{ v: string }>(
          `SELECT id || ' ' || test_step_id || ' ' || name || ' ' || passed || ' ' || COALESCE(numeric_value, string_value, boolean_value, '-') || ' ' || description AS v
           FROM test_measurements WHERE report_pk = ? ORDER BY test_step_id, timestamp, pk`,
          [r.pk],
        )
        .map((x) => x.v),
    };
  }
  return out;
}

export const count = (db: Db, table: string) => db.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)!.n;
