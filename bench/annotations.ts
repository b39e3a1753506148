// Issue #2 benchmark: bulk-create 100k annotations (tags, assets, metadata,
// logs) and list pages of 50 ordered by each order field, through the same
// code the API runs (listPage + loadAnnotations). Prints rates and per-page
// times; targets: >= 50k annotations/s inserted, a page in < 2 ms at 100k rows.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openEngine } from '../src-main/engine';
import { createAnnotation } from '../src-main/services/annotations/annotationsService';
import { listAnnotations } from '../src-main/services/annotations/annotationListing';
import { loadCaller } from '../src-main/auth/identity';
import { seedDemoData } from '../src-main/seed/seedDemoData';
import { withAnnotationBulkInserter } from '../src-main/services/annotations/annotationStore';
import { randomUUID } from 'node:crypto';
import { annotationListSpec } from '../src-main/services/annotations/annotationListSpec';

/** The machine may be shared: the load average says how far rates are from an idle machine's. */
const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function main(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { rows: { type: 'string', default: '100000' } }, strict: false });
  const rows = Number(values.rows);
  const dir = mkdtempSync(join(tmpdir(), 'outpost-bench-'));
  const engine = openEngine(dir);
  try {
    let t = performance.now();
    const counts = seedDemoData(engine.db, { annotations: rows, logs: false, ids: 'random' });
    let ms = performance.now() - t;
    console.log(
      `bulk load into an empty database: ${counts.annotations} annotations with tags, assets, linked channels and metadata in ${ms.toFixed(0)} ms = ${Math.round(counts.annotations / (ms / 1000))} annotations/s, index builds included (target >= 50000; ${load()})`,
    );
    // The same records appended to the now-populated tables: every index updated per row.
    const more = Math.max(1, Math.floor(rows / 5));
    const org = engine.db.get<{ id: string }>('SELECT id FROM organizations LIMIT 1')!.id;
    const someAsset = engine.db.get<{ id: string }>('SELECT id FROM assets LIMIT 1')!.id;
    t = performance.now();
    engine.db.tx(() =>
      withAnnotationBulkInserter(engine.db, (insert) => {
        for (let i = 0; i < more; i++) {
          insert({
            id: randomUUID(),
            organizationId: org,
            name: `appended ${i}`,
            description: 'Observed during the test.',
            startTime: i,
            endTime: i + 5,
            createdByUserId: 'bench',
            createdDate: 1_800_000_000_000_000 + i,
            runId: null,
            state: 1,
            assignedToUserId: '',
            annotationType: 1,
            archivedDate: null,
            tags: i % 2 ? ['anomaly'] : [],
            assetIds: [someAsset],
            channelIds: [],
            metadata: [
              ['severity', 2, null, i % 5, null],
              ['subsystem', 1, 'power', null, null],
            ],
          });
        }
      }),
    );
    ms = performance.now() - t;
    console.log(
      `append to a populated database: ${more} annotations in ${ms.toFixed(0)} ms = ${Math.round(more / (ms / 1000))} annotations/s (every index updated per row; target >= 40000 appending to 1M rows, here ${rows}: --rows 1000000; ${load()})`,
    );

    const userId = engine.db.get<{ id: string }>("SELECT id FROM users WHERE user_name = 'engineer@outpost.local'")!.id;
    const caller = loadCaller(engine.db, userId)!;
    const ctx = { engine, db: engine.db, caller };
    const runId = engine.db.get<{ id: string }>('SELECT id FROM runs LIMIT 1')!.id;
    const n = 2000; // service creates
    t = performance.now();
    for (let i = 0; i < n; i++) {
      createAnnotation(ctx, {
        name: `bench ${i}`,
        startTime: 1,
        endTime: 2,
        runId,
        tags: ['anomaly', 'bench'],
        assets: ['Falcon-7'],
        metadata: [{ key: { name: 'severity', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: i % 5 }],
      });
    }
    ms = performance.now() - t;
    console.log(
      `CreateAnnotation service (validated, one transaction each, with history log): ${Math.round(n / (ms / 1000))} annotations/s`,
    );

    console.log(`\nListAnnotations, page of 50 at ${rows + n} rows (median of 50 runs):`);
    console.log('order_by'.padEnd(22) + 'first page'.padStart(12) + 'page 20'.padStart(12));
    for (const field of Object.keys(annotationListSpec.orderFields)) {
      for (const dir of ['', ' desc']) {
        const orderBy = field + dir;
        const first: number[] = [];
        const deep: number[] = [];
        let token = '';
        for (let p = 0; p < 20; p++) token = listAnnotations(ctx, { pageSize: 50, orderBy, pageToken: token || undefined }).nextPageToken;
        for (let i = 0; i < 50; i++) {
          let s = performance.now();
          listAnnotations(ctx, { pageSize: 50, orderBy });
          first.push(performance.now() - s);
          s = performance.now();
          listAnnotations(ctx, { pageSize: 50, orderBy, pageToken: token });
          deep.push(performance.now() - s);
        }
        console.log(orderBy.padEnd(22) + `${median(first).toFixed(3)} ms`.padStart(12) + `${median(deep).toFixed(3)} ms`.padStart(12));
      }
    }
    console.log('(target: < 2 ms per page)');
  } finally {
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
