// The seeded HTTP fuzz of a real `outpost serve` (issue #19): thousands of
// hostile requests over every route; the process stays up, nothing answers
// 5xx, every error is the contract's body, and a failed request changes
// nothing. `npm run soak -- --http N` runs more seeds.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runHttpFuzz, startFuzzServer, type FuzzServer } from './httpFuzz';

let server: FuzzServer;
beforeAll(async () => {
  server = await startFuzzServer();
});
afterAll(() => server?.close());

test.each([1, 2])(
  'seed %i: 1000 hostile requests, every invariant kept',
  async (seed) => {
    const result = await runHttpFuzz(server, seed, 1000);
    expect(result.failures).toEqual([]);
    expect(result.requests).toBe(1000);
    // The fuzz reaches the handlers, not only the front door: some requests succeed, most are refused.
    expect(result.byStatus[200]).toBeGreaterThan(50);
    expect(result.byStatus[400]).toBeGreaterThan(200);
  },
  180_000,
);
