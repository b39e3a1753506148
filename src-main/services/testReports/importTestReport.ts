// ImportTestReport: an uploaded TestStand ATML file -> a report with its steps
// and measurements, atomically for readers, without holding the event loop.
//
// 1. stream-parse the stored file into a private staging database (async;
//    nothing touches the shared connection, memory stays bounded);
// 2. copy it into the real tables in short transactions (each about CHUNK_MS,
//    INSERT ... SELECT from the ATTACHed staging file, yielding to the event
//    loop between them, so other requests are answered during a big import).
//    The report is PENDING meanwhile: its row in test_report_imports hides it
//    and every step and measurement under it from lists and counts
//    (scope.ts), and nobody knows its new ids. The last transaction removes
//    the mark (and appends the sync outbox entry): the whole report appears
//    at once. A failure (or a crash: cleaned up by the next import) deletes
//    what was copied, also in short transactions; the report never appeared.
// 3. delete the staging file.
// Any parse error is INVALID_ARGUMENT with the parser's reason, and nothing is
// written.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestReport } from '../../../src-shared/api/testReports';
import { nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { contentFilePath } from '../remoteFiles/contentStore';
import { reportWrite } from '../common/writeScope';
import { findVisibleRemoteFile } from '../remoteFiles/remoteFileRows';
import { AtmlParseError, parseAtml } from './atmlParser';
import { ImportStaging, removeStaleStagingFiles, stagingPath } from './importStaging';
import { loadReports } from './testReportRows';
import {
  clearImportPending,
  deleteReportMeasurementsUpTo,
  deleteReportStepsUpTo,
  deleteTestReportRow,
  insertStagedReport,
  markImportPending,
  pendingImportReportPks,
  stagedMeasurementCopier,
  stagedStepCopier,
} from './testReportStore';

// Each chunk is parsed (and staged) in one go: small enough to keep that well under CHUNK_MS-scale blocks.
const READ_CHUNK_BYTES = 64 * 1024;

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
        throw ApiError.invalid(
          'remote_file_id',
          `remote file ${file.id} ('${file.file_name}') is not a TestStand ATML report: ${e.message}`,
        );
      }
      throw e;
    } finally {
      stream.destroy();
    }
    staging.finish();
    const pk = await copyStagedReport(ctx, staging.path, file.organization_id, file.id);
    return { testReport: loadReports(ctx.db, [pk])[0] };
  } finally {
    staging.remove();
  }
}

/** Target length of one copy transaction: other requests wait at most about this long for the connection. */
export const CHUNK_MS = 20;
const FIRST_CHUNK_ROWS = 256;
const MAX_CHUNK_ROWS = 50_000;
/**
 * Chunks commit without checkpointing (each rewrites scattered index pages, random ids, so SQLite's automatic
 * checkpoint would land inside every few chunks and make them several times longer); the import checkpoints itself,
 * in a turn of its own, after about this many pages of WAL.
 */
const CHECKPOINT_PAGES = 1000;

/** Copies run one at a time per database (one ATTACHed staging file at a time). */
const copying = new WeakMap<Db, Promise<unknown>>();

/** Rows per chunk so that the next chunk takes about CHUNK_MS, from how long the last one took. */
function nextChunkRows(rows: number, ms: number): number {
  const scaled = ms > 0 ? Math.floor((rows * CHUNK_MS) / ms) : rows * 2;
  return Math.max(16, Math.min(MAX_CHUNK_ROWS, scaled, rows * 4));
}

/**
 * One transaction of a pending import. Its commit need not be durable (synchronous NORMAL: no fsync per chunk):
 * until the last, durable transaction removes the pending mark these rows are invisible, and if a power cut loses
 * some, the mark goes with them or the next import deletes what is left. Nothing else runs in between to commit
 * under the relaxed setting (no await).
 */
function pendingTx<T>(db: Db, fn: () => T): T {
  const raw = db.raw;
  const synchronous = raw.pragma('synchronous', { simple: true }) as number;
  const autocheckpoint = raw.pragma('wal_autocheckpoint', { simple: true }) as number;
  raw.pragma('synchronous = NORMAL');
  raw.pragma('wal_autocheckpoint = 0');
  try {
    return db.tx(fn);
  } finally {
    raw.pragma(`synchronous = ${synchronous}`);
    raw.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
  }
}

/** The frames (pages) in the WAL now: a NOOP checkpoint only reports them. */
function walPages(db: Db): number {
  const [row] = db.raw.pragma('wal_checkpoint(NOOP)' as string) as unknown[] as { log: number }[];
  return row?.log ?? 0;
}

/**
 * Runs `chunk(lo, hi)` over [min, max] in short transactions, yielding to the event loop between them. The first
 * one also copies the top of the range (max), so a write between chunks gets a pk above the whole range; the
 * others go up from min (appending to the tables' B-trees, which is cheaper than inserting below existing rows).
 */
async function inChunks(db: Db, min: number, max: number, chunk: (lo: number, hi: number) => void): Promise<void> {
  let rows = FIRST_CHUNK_ROWS;
  let end = max; // the last key still to copy
  for (let lo = min; lo <= end;) {
    const hi = Math.min(end, lo + rows - 1);
    const reserveTop = end === max && hi < max;
    const t = performance.now();
    pendingTx(db, () => {
      if (reserveTop) chunk(max, max);
      chunk(lo, hi);
    });
    if (reserveTop) end = max - 1;
    rows = nextChunkRows(hi - lo + 1, performance.now() - t);
    lo = hi + 1;
    await yieldToEventLoop();
    if (walPages(db) >= CHECKPOINT_PAGES) {
      db.raw.pragma('wal_checkpoint(PASSIVE)');
      await yieldToEventLoop();
    }
  }
}

/** Deletes a pending report and everything copied under it, in short transactions; the mark goes last. */
async function deletePendingReport(db: Db, reportPk: number): Promise<void> {
  const report = db.get<{ id: string }>('SELECT id FROM test_reports WHERE pk = ?', [reportPk]);
  if (report) {
    const batch = async (deleteUpTo: (rows: number) => number) => {
      for (let rows = FIRST_CHUNK_ROWS; ;) {
        const t = performance.now();
        const n = db.tx(() => deleteUpTo(rows));
        if (n === 0) break;
        rows = nextChunkRows(rows, performance.now() - t);
        await yieldToEventLoop();
      }
    };
    await batch((rows) => deleteReportMeasurementsUpTo(db, report.id, rows));
    await batch((rows) => deleteReportStepsUpTo(db, reportPk, rows));
  }
  db.tx(() => {
    deleteTestReportRow(db, reportPk);
    clearImportPending(db, reportPk);
  });
}

/**
 * Removes what earlier imports left pending (a crash, or a failed cleanup): called while no copy runs (copies run
 * one at a time and the data directory has one process), so every mark is abandoned. Those rows were never visible.
 */
async function removeAbandonedImports(db: Db): Promise<void> {
  for (const reportPk of pendingImportReportPks(db)) await deletePendingReport(db, reportPk);
}

/** Waits for the copies before it, then runs `fn` alone (per database). */
async function oneCopyAtATime<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const before = copying.get(db) ?? Promise.resolve();
  const mine = before.catch(() => {}).then(fn);
  copying.set(db, mine);
  try {
    return await mine;
  } finally {
    if (copying.get(db) === mine) copying.delete(db);
  }
}

/** Copies a finished staging file into the real tables (pending until the last transaction); returns the new report's pk. */
export function copyStagedReport(
  ctx: RequestContext,
  stagingPath: string,
  organizationId: string,
  remoteFileId: string | null,
): Promise<number> {
  return oneCopyAtATime(ctx.db, async () => {
    const { db, caller } = ctx;
    const raw = db.raw;
    // ATTACH/DETACH are not allowed inside a transaction: start from a fresh turn of the event loop (an async
    // handler's first part may run inside a group commit).
    await yieldToEventLoop();
    await removeAbandonedImports(db);
    // A staging schema left attached by an earlier failure would block every later import: drop it first.
    if ((raw.prepare('PRAGMA database_list').all() as { name: string }[]).some((d) => d.name === 'staging'))
      raw.prepare('DETACH DATABASE staging').run();
    raw.prepare('ATTACH DATABASE ? AS staging').run(stagingPath);
    let reportPk: number | undefined;
    try {
      const now = nowMicros();
      const reportId = randomUUID();
      const userId = caller.userId;
      reportPk = db.tx(() => {
        const pk = insertStagedReport(db, { id: reportId, organizationId, remoteFileId, userId, now });
        if (pk === undefined) throw ApiError.invalid('remote_file_id', 'the file holds no test report');
        markImportPending(db, pk);
        return pk;
      });
      const pkOfReport = reportPk;
      const copy = { reportPk: pkOfReport, reportId, organizationId, userId, now };

      // Explicit pks, increasing with the parser's key / arrival seq (so pk order = document order) above every
      // existing pk: child rows then reference their parents by arithmetic, without looking ids up. The base is
      // read in the first chunk, which copies the top of the range (inChunks), reserving it.
      const steps = raw.prepare('SELECT MIN(key) AS lo, MAX(key) AS hi FROM staging.steps').get() as {
        lo: number | null;
        hi: number | null;
      };
      let stepBase: number | undefined;
      if (steps.lo !== null && steps.hi !== null) {
        const copySteps = stagedStepCopier(db, copy);
        await inChunks(db, steps.lo, steps.hi, (lo, hi) => {
          stepBase ??= (raw.prepare('SELECT COALESCE(MAX(pk), 0) AS m FROM main.test_steps').get() as { m: number }).m + 1;
          copySteps(stepBase, lo, hi);
        });
      }

      const measurements = raw.prepare('SELECT MIN(seq) AS lo, MAX(seq) AS hi FROM staging.measurements').get() as {
        lo: number | null;
        hi: number | null;
      };
      if (measurements.lo !== null && measurements.hi !== null && stepBase !== undefined) {
        let measurementBase: number | undefined;
        const copyMeasurements = stagedMeasurementCopier(db, copy, stepBase);
        await inChunks(db, measurements.lo, measurements.hi, (lo, hi) => {
          measurementBase ??= (raw.prepare('SELECT COALESCE(MAX(pk), 0) AS m FROM main.test_measurements').get() as { m: number }).m;
          copyMeasurements(measurementBase, lo, hi);
        });
      }

      // The report appears, whole, in this transaction; a sync replica appends its outbox entry here too (writeScope.ts).
      db.tx(() => {
        clearImportPending(db, pkOfReport);
        reportWrite({ testReport: loadReports(db, [pkOfReport])[0] });
      });
      return pkOfReport;
    } catch (e) {
      if (reportPk !== undefined) await deletePendingReport(db, reportPk);
      throw e;
    } finally {
      raw.prepare('DETACH DATABASE staging').run();
    }
  });
}
