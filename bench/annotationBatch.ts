// #33 goal 1: a batch action on 3,000 annotations as the renderer sends it (one
// BatchChangeAnnotations call through invoke on a sync replica: validation,
// authorization, each record's UpdateAnnotation with its UPDATE, history entry
// and outbox entry, one transaction), from the call to committed, against a
// floor measured in the same run: the same UPDATEs, history INSERTs and outbox
// INSERTs (entry, target, merge base) written by hand as prepared statements in
// one transaction. Beside it, the same change as BatchUpdateAnnotations (each
// item a whole UpdateAnnotation request, answered with the whole annotation).
// Goal: engine <= 2x the floor.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DEFAULT_USER_NAME, loadCaller } from '../src-main/auth/identity';
import { openEngine } from '../src-main/engine';
import { seedDemoData } from '../src-main/seed/seedDemoData';
import { invoke } from '../src-main/services/invoke';
import { syncReplica } from '../src-main/sync/assembly/syncReplica';

const STATES = ['ANNOTATION_STATE_OPEN', 'ANNOTATION_STATE_FLAGGED', 'ANNOTATION_STATE_RESOLVED'] as const;
const STATE_NUMBER: Record<(typeof STATES)[number], number> = {
  ANNOTATION_STATE_OPEN: 1,
  ANNOTATION_STATE_FLAGGED: 2,
  ANNOTATION_STATE_RESOLVED: 3,
};
const STATE_UPDATE_LOG = 2; // ANNOTATION_LOG_KIND_STATE_UPDATE

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function main(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { batch: { type: 'string', default: '3000' }, rounds: { type: 'string', default: '5' } },
    strict: false,
  });
  const size = Number(values.batch);
  const rounds = Number(values.rounds);
  const dir = mkdtempSync(join(tmpdir(), 'outpost-bench-batch-'));
  // Demo data is seeded before the directory becomes a replica (a replica refuses it); then every write is recorded.
  const seeding = openEngine(dir);
  seedDemoData(seeding.db, { annotations: Math.ceil((size * 3 * rounds + 300) * 1.25), logs: false, ids: 'random' });
  seeding.close();
  const engine = openEngine(dir, { replica: syncReplica({ replica: true }) });
  try {
    const { db } = engine;
    const userId = db.get<{ id: string }>('SELECT id FROM users WHERE user_name = ?', [DEFAULT_USER_NAME])!.id;
    const caller = { ...loadCaller(db, userId)!, owner: true };
    const ids = db
      .all<{ id: string }>('SELECT id FROM annotations WHERE annotation_type = 1 AND archived_date IS NULL ORDER BY pk')
      .map((r) => r.id);
    if (ids.length < size * 3 * rounds) throw new Error(`bench: ${ids.length} annotations, ${size * 3 * rounds} needed`);

    const update = db.statement('UPDATE annotations SET state = ?, modified_date = ?, modified_by_user_id = ? WHERE id = ?');
    const history = db.statement(
      `INSERT INTO annotation_logs(id, annotation_pk, annotation_id, organization_id, kind, created_by_user_id, created_by_user_name, created_date, modified_date, state)
       SELECT ?, pk, id, organization_id, ?, ?, ?, ?, ?, ? FROM annotations WHERE id = ?`,
    );
    const base = db.statement(
      `INSERT OR IGNORE INTO sync_base(resource, record_id, remote_version, fields)
       SELECT 'annotations', id, modified_date, json_object('name', name, 'description', description, 'state', state, 'assigned_to_user_id', assigned_to_user_id, 'start_time', start_time, 'end_time', end_time) FROM annotations WHERE id = ?`,
    );
    const entry = db.statement(
      'INSERT INTO sync_outbox(operation, request, created_ids, side_effect_log_ids, local_time) VALUES (?, ?, ?, ?, ?)',
    );
    const target = db.statement('INSERT INTO sync_outbox_targets(seq, resource, record_id, fields, base_version) VALUES (?, ?, ?, ?, ?)');

    /** The floor: the same rows written by hand, prepared statements, one transaction. */
    const floor = (batch: readonly string[], state: (typeof STATES)[number]) =>
      db.tx(() => {
        const now = Date.now() * 1000;
        for (const id of batch) {
          base.run(id);
          update.run(STATE_NUMBER[state], now, userId, id);
          const logId = randomUUID();
          history.run(logId, STATE_UPDATE_LOG, userId, DEFAULT_USER_NAME, now, now, STATE_NUMBER[state], id);
          const request = JSON.stringify({ annotation: { annotationId: id, state }, updateMask: ['state'] });
          const seq = Number(entry.run('UpdateAnnotation', request, '[]', JSON.stringify([logId]), now).lastInsertRowid);
          target.run(seq, 'annotations', id, '["state"]', now);
        }
      });

    /** The engine: one BatchChangeAnnotations call, as the renderer sends it for its selected rows. */
    const viaChange = (batch: readonly string[], state: (typeof STATES)[number]) =>
      invoke({ engine, db, caller }, 'BatchChangeAnnotations', {
        records: batch.map((annotationId) => ({ annotationId, change: { state } })),
      });
    /** The same change as BatchUpdateAnnotations requests. */
    const viaUpdate = (batch: readonly string[], state: (typeof STATES)[number]) =>
      invoke({ engine, db, caller }, 'BatchUpdateAnnotations', {
        requests: batch.map((annotationId) => ({ annotation: { annotationId, state }, updateMask: 'state' })),
      });

    /** Wall and CPU (user + system: on a shared, loaded machine the steadier of the two) ms of one call. */
    const timed = async (run: () => unknown, into: { wall: number[]; cpu: number[] }) => {
      const cpu = process.cpuUsage();
      const t = performance.now();
      await run();
      into.wall.push(performance.now() - t);
      const used = process.cpuUsage(cpu);
      into.cpu.push((used.user + used.system) / 1000);
    };
    const change = { wall: [] as number[], cpu: [] as number[] };
    const asUpdate = { wall: [] as number[], cpu: [] as number[] };
    const byHand = { wall: [] as number[], cpu: [] as number[] };
    // Warm every path once (statement caches, V8 tiers) on rows the timed rounds do not touch.
    const spare = ids.slice(size * 3 * rounds);
    if (spare.length >= 300) {
      floor(spare.slice(0, 100), 'ANNOTATION_STATE_RESOLVED');
      await viaChange(spare.slice(100, 200), 'ANNOTATION_STATE_FLAGGED');
      await viaUpdate(spare.slice(200, 300), 'ANNOTATION_STATE_FLAGGED');
    }
    // Alternating rounds, each on fresh records (a record's first edit takes its merge base: every path pays it).
    for (let r = 0; r < rounds; r++) {
      const slice = (k: number) => ids.slice((3 * r + k) * size, (3 * r + k + 1) * size);
      const state = STATES[r % 3];
      await timed(() => viaChange(slice(0), state), change);
      await timed(() => viaUpdate(slice(1), state), asUpdate);
      await timed(() => floor(slice(2), state), byHand);
    }
    const outbox = db.get<{ n: number }>("SELECT count(*) AS n FROM sync_outbox WHERE operation = 'UpdateAnnotation'")!.n;
    const f = median(byHand.wall);
    const fc = median(byHand.cpu);
    const line = (what: string, m: { wall: number[]; cpu: number[] }) =>
      `${what} ${median(m.wall).toFixed(0)} ms = ${(median(m.wall) / f).toFixed(2)}x the floor (CPU ${median(m.cpu).toFixed(0)} ms = ${(median(m.cpu) / fc).toFixed(2)}x)`;
    console.log(
      `batch state change of ${size} annotations on a replica, call to committed (median of ${rounds}): ` +
        `${line("engine, one BatchChangeAnnotations (the renderer's call)", change)} (goal <= 2x); ` +
        `${line('as BatchUpdateAnnotations', asUpdate)}; ` +
        `floor ${f.toFixed(0)} ms, CPU ${fc.toFixed(0)} ms (same UPDATEs, history and outbox INSERTs by hand, one transaction); ` +
        `${outbox} outbox entries written; load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );
  } finally {
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
