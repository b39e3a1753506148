// Test reports in the sync fuzzer. A replica, offline, imports the real ATML
// sample (upload then import, two outbox entries), changes report fields with
// UpdateTestReport, archives or unarchives; the online colleague does the same
// directly on the remote. Every import of the one sample looks the same (name,
// test system, serial...), which is what the push's unknown-outcome lookup
// has to tell apart; so identity is not a field but the id: a report is
// tracked by the id its writer got, and the writer's id map gives its remote id.
// The checker demands every replica hold exactly the remote's reports (ids,
// fields, steps, measurements), each import (and its uploaded file) exist once
// on the remote with the sample's step and measurement counts, and field values obey the "nothing
// lost" rule. A field changed on both sides goes to the remote (the wire report
// has no modified_date to compare, see docs/API.md), the local value to the conflict
// log; the rule already accepts a value that is in a conflict log, whichever
// side won.
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../../src-main/db/database';
import { invoke } from '../../../src-main/services/invoke';
import type { TestServer } from '../../support/testServer';
import { callerOf, type Replica } from '../helpers';
import { byFuzzId, canonical, conflictLosers, REMOTE, trackedByWriterId, type FuzzContext, type Write } from './model';

const SAMPLE = fileURLToPath(new URL('../../fixtures/teststand/demo_test_report.xml', import.meta.url));

/** The UpdateTestReport fields the fuzzer writes: sync field name -> update_mask path. */
const FIELDS = { name: 'name', serial_number: 'serialNumber', part_number: 'partNumber', system_operator: 'systemOperator' } as const;
type Field = keyof typeof FIELDS | 'is_archived';

/** POSTs whose replay makes a second file or report (no idempotency key): the world injects no duplicate there. */
export const reportCreate = (r: { method: string; path: string }) =>
  r.method === 'POST' && (r.path.startsWith('/api/v0/remote-files/upload') || r.path.startsWith('/api/v1/test-reports'));

interface ReportRow {
  id: string;
  name: string;
  serial_number: string;
  part_number: string;
  system_operator: string;
  is_archived: boolean;
}

const rows = (db: Db): ReportRow[] =>
  db
    .all<Omit<ReportRow, 'is_archived'> & { archived: number }>(
      'SELECT id, name, serial_number, part_number, system_operator, archived_date IS NOT NULL AS archived FROM test_reports ORDER BY id',
    )
    .map(({ archived, ...r }) => ({ ...r, is_archived: archived === 1 }));

/**
 * Every report of a store with all its synced fields, steps and measurements, comparable across stores.
 * Not the author: the wire TestReport does not carry one, so a pulled report is recorded as the local user's.
 */
function reportView(db: Db) {
  const out: Record<string, unknown> = {};
  for (const r of db.all<Record<string, unknown> & { pk: number; id: string }>(
    `SELECT pk, id, organization_id, status, name, test_system_name, test_case, start_time, end_time, serial_number, part_number, system_operator, run_id,
            archived_date IS NOT NULL AS archived FROM test_reports ORDER BY id`,
  )) {
    const { pk, ...fields } = r;
    out[r.id] = {
      ...fields,
      steps: db
        .all<{ v: string }>(
          "SELECT id || ' ' || step_path_text(path_key) || ' ' || name || ' ' || COALESCE(parent_step_id, '') || ' ' || status AS v FROM test_steps WHERE report_pk = ? ORDER BY id",
          [pk],
        )
        .map((x) => x.v),
      measurements: db
        .all<{ v: string }>(
          `SELECT id || ' ' || test_step_id || ' ' || name || ' ' || passed || ' ' || COALESCE(numeric_value, string_value, boolean_value, '-') AS v
           FROM test_measurements WHERE report_pk = ? ORDER BY id`,
          [pk],
        )
        .map((x) => x.v),
    };
  }
  return out;
}

/** What differs between a replica's report and the remote's: changed fields, and the steps/measurements on one side only. */
function diffOf(local: unknown, remote: unknown): Record<string, unknown> {
  if (!local || !remote) return { local: local ? 'present' : 'missing', remote: remote ? 'present' : 'missing' };
  const x = local as Record<string, unknown>;
  const y = remote as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys({ ...x, ...y })) {
    if (canonical(x[k]) === canonical(y[k])) continue;
    if (Array.isArray(x[k]) && Array.isArray(y[k])) {
      const a = new Set(x[k] as string[]);
      const b = new Set(y[k] as string[]);
      out[k] = {
        localCount: a.size,
        remoteCount: b.size,
        localOnly: [...a].filter((e) => !b.has(e)).slice(0, 3),
        remoteOnly: [...b].filter((e) => !a.has(e)).slice(0, 3),
      };
    } else out[k] = { local: x[k], remote: y[k] };
  }
  return out;
}

const childCounts = (db: Db, id: string) =>
  db.get<{ steps: number; measurements: number }>(
    `SELECT (SELECT count(*) FROM test_steps s WHERE s.report_pk = r.pk) AS steps, (SELECT count(*) FROM test_measurements m WHERE m.report_pk = r.pk) AS measurements
     FROM test_reports r WHERE r.id = ?`,
    [id],
  )!;

export function testReportFuzz(ctx: FuzzContext, remote: TestServer) {
  /** Fuzz id -> the writer and the id it got at the import (a replica's local id until the push maps it). */
  const { made: imports, remoteId, fuzzIdOf } = trackedByWriterId(ctx.replicas);
  /** The sample's step and measurement counts, as the first import made them. */
  let sample: { steps: number; measurements: number } | undefined;
  const webCall = (op: Parameters<typeof invoke>[1], request: unknown) =>
    invoke({ engine: remote.engine, db: remote.engine.db, caller: callerOf(remote.engine.db, 'web@outpost.local') }, op, request);

  /** Upload the sample and import it, the way the HTTP adapter hands over a multipart file (a temp file the upload moves away). */
  async function importSample(call: (op: Parameters<typeof invoke>[1], req: unknown) => Promise<any>, dataDir: string): Promise<string> {
    const tmp = join(dataDir, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const path = join(tmp, `upload-${randomUUID()}`);
    copyFileSync(SAMPLE, path);
    const { remoteFile } = await call('UploadRemoteFile', {
      entityId: randomUUID(),
      entityType: 'test_reports',
      file: { path, fileName: 'demo_test_report.xml', mimeType: 'application/xml', encoding: '', size: statSync(path).size },
    });
    const { testReport } = await call('ImportTestReport', { remoteFileId: remoteFile.remoteFileId });
    return testReport.testReportId as string;
  }

  async function act(writer: string, call: (op: Parameters<typeof invoke>[1], req: unknown) => Promise<any>, dataDir: string, db: Db) {
    const mine = rows(db)
      .map((r) => ({ ...r, fuzzId: fuzzIdOf(r.id) }))
      .filter((r): r is ReportRow & { fuzzId: string } => !!r.fuzzId)
      .sort(byFuzzId);
    if (mine.length === 0 || ctx.rand() < 0.3) {
      const fuzzId = ctx.nextId('r');
      const id = await importSample(call, dataDir);
      imports.set(fuzzId, { writer, id });
      sample ??= childCounts(db, id);
      const row = rows(db).find((r) => r.id === id)!;
      for (const f of [...Object.keys(FIELDS), 'is_archived'] as Field[]) ctx.record(writer, fuzzId, f, row[f]);
      return `import ${fuzzId}`;
    }
    const target = ctx.pick(mine);
    if (ctx.rand() < 0.3) {
      const archive = !target.is_archived || ctx.rand() < 0.2;
      await call('UpdateTestReport', { testReport: { testReportId: target.id, isArchived: archive }, updateMask: 'isArchived' });
      ctx.record(writer, target.fuzzId, 'is_archived', archive, target.is_archived);
      return `${archive ? 'archive' : 'unarchive'} ${target.fuzzId}`;
    }
    const fields = (Object.keys(FIELDS) as (keyof typeof FIELDS)[]).filter(() => ctx.rand() < 0.4);
    if (fields.length === 0) fields.push('name');
    const patch: Record<string, unknown> = { testReportId: target.id };
    for (const f of fields) {
      const v = `${f.slice(0, 2)}${ctx.step()}-${writer}`;
      patch[FIELDS[f]] = v;
      ctx.record(writer, target.fuzzId, f, v, target[f]);
    }
    await call('UpdateTestReport', { testReport: patch, updateMask: fields.map((f) => FIELDS[f]).join(',') });
    return `update report ${target.fuzzId} ${fields.join(',')}`;
  }

  return {
    imports,
    edit: (r: Replica) => act(r.name, (op, req) => r.call(op, req), r.dir, r.engine.db),
    remoteEdit: () => act(REMOTE, webCall, remote.dataDir, remote.engine.db).then((s) => `web ${s}`),

    check(fail: (why: string) => never) {
      const remoteView = reportView(remote.engine.db);
      const text = canonical(remoteView);
      for (const r of ctx.replicas) {
        const v = reportView(r.engine.db);
        if (canonical(v) === text) continue;
        const ids = [...new Set([...Object.keys(v), ...Object.keys(remoteView)])].filter(
          (id) => canonical(v[id]) !== canonical(remoteView[id]),
        );
        fail(
          `${r.name} diverges from the remote on test reports: ${JSON.stringify(ids.slice(0, 2).map((id) => ({ id, ...diffOf(v[id], remoteView[id]) })))}`,
        );
      }
      // Exactly once: each import's remote id is a distinct report there, and there is no other.
      const seen = new Map<string, string>();
      for (const [f, e] of imports) {
        const id = remoteId(e);
        if (!remoteView[id]) fail(`report ${f} (${e.writer}'s ${e.id}) is not on the remote as ${id}`);
        if (seen.has(id)) fail(`reports ${seen.get(id)} and ${f} are one report ${id} on the remote`);
        seen.set(id, f);
        const n = childCounts(remote.engine.db, id);
        if (canonical(n) !== canonical(sample))
          fail(`report ${f} has ${JSON.stringify(n)} steps/measurements on the remote; the sample has ${JSON.stringify(sample)}`);
      }
      // The upload under each import, once too (its client-chosen entity id is its marker).
      const files = remote.engine.db.get<{ n: number; ids: number }>(
        'SELECT count(*) AS n, count(DISTINCT entity_id) AS ids FROM remote_files',
      )!;
      if (files.n !== imports.size || files.ids !== imports.size)
        fail(`the remote has ${files.n} uploaded files (${files.ids} entity ids) for ${imports.size} imports`);
      const extra = Object.keys(remoteView).filter((id) => !seen.has(id));
      if (extra.length) fail(`the remote has ${extra.length} reports nobody imported (duplicates?): ${extra.slice(0, 3).join(', ')}`);

      const finals = new Map(rows(remote.engine.db).map((r) => [seen.get(r.id)!, r]));
      const final = (w: Write) => canonical(finals.get(w.fuzzId)![w.field as Field]);
      return { final, ...conflictLosers(ctx.replicas, 'test_report', fuzzIdOf) };
    },
  };
}
