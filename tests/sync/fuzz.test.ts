// The seeded sync fuzzer (tests/sync/fuzz/world.ts) on a handful of seeds;
// `npm run soak -- --seeds 200` runs many more.
import { describe, expect, test } from 'vitest';
import { runFuzz } from './fuzz/world';

const SEEDS = (process.env.OUTPOST_FUZZ_SEEDS ?? '1,2,3,4,904217').split(',').map(Number);

describe('sync fuzzer', () => {
  let kills = 0;
  for (const seed of SEEDS) {
    test(`seed ${seed}: replicas converge with the remote, nothing lost or duplicated, through faults and a kill -9`, async () => {
      const lines: string[] = [];
      try {
        const result = await runFuzz(seed, { log: (l) => lines.push(l) });
        expect(result.syncs).toBeGreaterThan(0);
        kills += result.kills;
      } catch (e) {
        throw new Error(
          `${(e as Error).message}\nreplay: OUTPOST_FUZZ_SEEDS=${seed} npx vitest run tests/sync/fuzz.test.ts\n${lines.join('\n')}`,
        );
      }
    });
  }
  // A child sync can finish before its kill lands; over the seeds some must land (none did while the data directory's
  // lock turned every child away).
  test('the seeds killed child syncs mid-run', () => expect(kills).toBeGreaterThan(0));
});
