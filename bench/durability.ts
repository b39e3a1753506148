// What "acknowledged means durable" costs (issue #19 item 8): API creates
// through invoke and group commit, as `outpost serve` runs them, on a database
// with synchronous=FULL (every commit syncs the WAL: a write answered 200
// survives a power cut) against the same with synchronous=NORMAL (the last
// commits may roll back after one). Clients with 1 and 16 writes in flight:
// group commit shares one sync among the writes of an event-loop turn.
// Prints both rates and the ratio; never asserts times.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DEFAULT_USER_NAME, loadCaller } from '../src-main/auth/identity';
import { groupCommitFor } from '../src-main/db/groupCommit';
import { openEngine, type Engine } from '../src-main/engine';
import { seedDemoData } from '../src-main/seed/seedDemoData';
import { invoke } from '../src-main/services/invoke';

async function createRate(engine: Engine, inFlight: number, writes: number): Promise<number> {
  const userId = engine.db.get<{ id: string }>('SELECT id FROM users WHERE user_name = ?', [DEFAULT_USER_NAME])!.id;
  const ctx = { engine, db: engine.db, caller: loadCaller(engine.db, userId)! };
  const commits = groupCommitFor(engine.db);
  let next = 0;
  const t0 = performance.now();
  const client = async () => {
    while (next < writes) {
      const i = next++;
      await commits.submit(() =>
        invoke(ctx, 'CreateAnnotation', {
          name: `durable ${i}`,
          startTime: '2026-09-01T00:00:00Z',
          endTime: '2026-09-01T00:01:00Z',
          assets: ['Falcon-7'],
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: inFlight }, client));
  return writes / ((performance.now() - t0) / 1000);
}

export async function main(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { writes: { type: 'string', default: '2000' } }, strict: false });
  const writes = Number(values.writes);
  console.log(
    `API creates through invoke + group commit, ${writes} per run; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const inFlight of [1, 16]) {
    const rates: Record<string, number> = {};
    for (const mode of ['NORMAL', 'FULL'] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'outpost-bench-durability-'));
      const engine = openEngine(dir);
      try {
        seedDemoData(engine.db, { annotations: 100 });
        engine.db.raw.pragma(`synchronous = ${mode}`);
        rates[mode] = await createRate(engine, inFlight, writes);
      } finally {
        engine.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
    console.log(
      `  ${String(inFlight).padStart(2)} in flight: synchronous=NORMAL ${Math.round(rates.NORMAL)} creates/s, FULL ${Math.round(rates.FULL)} creates/s ` +
        `-> FULL costs ${(rates.NORMAL / rates.FULL).toFixed(2)}x (the price of durable acknowledgements; no goal, reported)`,
    );
  }
}
