// ImportTestReport benchmark, through the same services the API runs
// (uploadRemoteFile + importTestReport: stream-parse into a staging database,
// then ATTACH + INSERT ... SELECT in short transactions, yielding between them):
// 1. a generated ~50 MB TestStand report (the demo's ResultSet body repeated):
//    time, MB/s, rows, peak RSS, the ratio to a parse-only pass, and the
//    longest the event loop was blocked during the import (goal: 100 ms,
//    issue #19 item 3), from perf_hooks.monitorEventLoopDelay;
// 2. the 184 KB demo report imported N times: reports/s and steps/s.
// Usage: node bin/run-ts.mjs bench/testReportImport.ts [--reports 50] [--mb 50]
import { copyFileSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createApiKey } from '../src-main/auth/apiKeys';
import { loadCaller } from '../src-main/auth/identity';
import { openEngine, type RequestContext } from '../src-main/engine';
import { uploadRemoteFile } from '../src-main/services/remoteFiles/remoteFilesService';
import { parseAtmlFile } from '../src-main/services/testReports/atmlParser';
import { importTestReport } from '../src-main/services/testReports/importTestReport';

const here = dirname(fileURLToPath(import.meta.url));
const SAMPLE = join(here, '../tests/fixtures/teststand/demo_test_report.xml');
const MB = 1024 * 1024;
/** Issue #19 item 3: an import must not hold other requests for longer than this at a time. */
const BLOCK_GOAL_MS = 100;

const mb = (bytes: number) => (bytes / MB).toFixed(1);
const rssMb = () => mb(process.memoryUsage().rss);
const peakRssMb = () => mb(process.resourceUsage().maxRSS * 1024);

/** Writes a valid ATML document of about `targetBytes`: the demo with its ResultSet's steps repeated. */
export async function generateLargeReport(path: string, targetBytes: number): Promise<number> {
  const text = readFileSync(SAMPLE, 'latin1');
  const resultSet = text.indexOf('<tr:ResultSet');
  const firstStep = text.slice(resultSet).search(/<tr:(TestGroup|Test|SessionAction)[\s>]/) + resultSet;
  const end = text.indexOf('</tr:ResultSet>');
  const head = text.slice(0, firstStep);
  const body = text.slice(firstStep, end);
  const tail = text.slice(end);
  const copies = Math.max(1, Math.ceil((targetBytes - head.length - tail.length) / body.length));
  const out = createWriteStream(path);
  const write = async (chunk: string) => {
    if (!out.write(chunk, 'latin1')) await once(out, 'drain');
  };
  await write(head);
  for (let i = 0; i < copies; i++) await write(body);
  await write(tail);
  out.end();
  await once(out, 'finish');
  return copies;
}

function uploadFrom(ctx: RequestContext, source: string, fileName: string): string {
  // uploadRemoteFile moves its temp file into the store, as the HTTP upload does.
  const tmp = join(ctx.engine.dataDir, 'tmp', `bench-${Math.random().toString(36).slice(2)}`);
  copyFileSync(source, tmp);
  const { remoteFile } = uploadRemoteFile(ctx, {
    entityId: 'bench',
    entityType: 'test_reports',
    file: { path: tmp, fileName, mimeType: 'application/xml', encoding: '', size: statSync(tmp).size },
  });
  return remoteFile.remoteFileId;
}

export async function main(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { reports: { type: 'string', default: '50' }, mb: { type: 'string', default: '50' } },
    strict: false,
  });
  const reports = Number(values.reports);
  const targetMb = Number(values.mb);
  const dir = mkdtempSync(join(tmpdir(), 'outpost-bench-reports-'));
  const engine = openEngine(dir);
  try {
    const { userId } = createApiKey(engine.db, 'bench@outpost.local', 'Bench');
    const ctx: RequestContext = { engine, db: engine.db, caller: loadCaller(engine.db, userId)! };
    mkdirSync(join(dir, 'tmp'), { recursive: true });

    // Warm-up (statement compilation, JIT) with one small import.
    await importTestReport(ctx, uploadFrom(ctx, SAMPLE, 'demo_test_report.xml'));

    // --- large report --------------------------------------------------------------------------------
    const big = join(dir, 'large_report.xml');
    const copies = await generateLargeReport(big, targetMb * MB);
    const bytes = statSync(big).size;
    let t = performance.now();
    let parsedSteps = 0;
    const parsed = await parseAtmlFile(big, { report() {}, step: () => void parsedSteps++, measurement() {} });
    const parseMs = performance.now() - t;
    const bigId = uploadFrom(ctx, big, 'large_report.xml');
    const rssBefore = rssMb();
    let sampledPeak = process.memoryUsage().rss;
    const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss)), 20);
    const loopDelay = monitorEventLoopDelay({ resolution: 1 });
    loopDelay.enable();
    t = performance.now();
    const { testReport } = await importTestReport(ctx, bigId);
    const importMs = performance.now() - t;
    loopDelay.disable();
    clearInterval(sampler);
    const steps = engine.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM test_steps WHERE test_report_id = ?', [
      testReport.testReportId,
    ])!.n;
    const measurements = engine.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM test_measurements WHERE test_report_id = ?', [
      testReport.testReportId,
    ])!.n;
    console.log(
      `large report: ${mb(bytes)} MB (demo body x ${copies}), ${steps} steps, ${measurements} measurements (parser: ${parsed.steps}/${parsed.measurements})`,
    );
    console.log(
      `  parse only (no-op sink):          ${(parseMs / 1000).toFixed(2)} s = ${(bytes / MB / (parseMs / 1000)).toFixed(1)} MB/s`,
    );
    console.log(
      `  ImportTestReport (stage + copy):  ${(importMs / 1000).toFixed(2)} s = ${(bytes / MB / (importMs / 1000)).toFixed(1)} MB/s, ${Math.round(steps / (importMs / 1000))} steps/s; ${(importMs / parseMs).toFixed(2)}x parse-only`,
    );
    const blockedMs = loopDelay.max / 1e6;
    console.log(
      `  longest event-loop block during the import: ${blockedMs.toFixed(1)} ms (goal <= ${BLOCK_GOAL_MS} ms: ${blockedMs <= BLOCK_GOAL_MS ? 'met' : 'NOT met'}); p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs (a busy machine stretches every block)`,
    );
    console.log(
      `  RSS before ${rssBefore} MB, sampled peak during the async parse ${mb(sampledPeak)} MB, process peak (maxRSS) ${peakRssMb()} MB`,
    );

    // --- the demo report, N times ----------------------------------------------------------------------
    const ids = Array.from({ length: reports }, () => uploadFrom(ctx, SAMPLE, 'demo_test_report.xml'));
    t = performance.now();
    for (const id of ids) await importTestReport(ctx, id);
    const ms = performance.now() - t;
    console.log(
      `demo report (184 KB, 223 steps, 15 measurements) x ${reports}: ${(ms / reports).toFixed(1)} ms each = ${(reports / (ms / 1000)).toFixed(1)} reports/s, ${Math.round((reports * 223) / (ms / 1000))} steps/s`,
    );
  } finally {
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
