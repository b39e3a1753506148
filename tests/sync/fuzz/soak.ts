// `npm run soak -- --seeds 200 [--start 1] [--steps 60] [--kills 2] [--verbose]`:
// the sync fuzzer on many seeds; prints one line per seed and the failing
// seed with its replay command and step log.
// `npm run soak -- --http 20 [--requests 3000]`: the HTTP fuzz of `outpost serve`
// (tests/http/httpFuzz.ts) on 20 seeds instead.
import { parseArgs } from 'node:util';
import { runHttpFuzz, startFuzzServer } from '../../http/httpFuzz';
import { runFuzz } from './world';

export async function main(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      seeds: { type: 'string', default: '200' },
      start: { type: 'string', default: '1' },
      steps: { type: 'string', default: '60' },
      kills: { type: 'string', default: '2' },
      clients: { type: 'string', default: '3' },
      verbose: { type: 'boolean', default: false },
      http: { type: 'string' },
      requests: { type: 'string', default: '3000' },
    },
  });
  if (values.http) return soakHttp(Number(values.start), Number(values.http), Number(values.requests));
  const start = Number(values.start);
  const count = Number(values.seeds);
  const started = Date.now();
  let failed = 0;
  for (let seed = start; seed < start + count; seed++) {
    const lines: string[] = [];
    try {
      const r = await runFuzz(seed, {
        steps: Number(values.steps),
        kills: Number(values.kills),
        clients: Number(values.clients),
        log: (l) => lines.push(l),
      });
      console.log(
        `seed ${seed}: ok  syncs=${r.syncs} kills=${r.kills} annotations=${r.annotations} (refused: ${r.discarded} discarded, ${r.corrected} corrected) comments=${r.comments} artifacts=${r.artifacts}/${r.artifactVersions}v/${r.artifactDuplicates}dup reports=${r.testReports} searches=${r.savedSearches}/${r.savedSearchesDeleted}del/${r.goneRemotely}gone policies=${r.policies} conflicts=${r.conflicts} (undone ${r.undone}; artifacts ${r.artifactConflicts}, reports ${r.testReportConflicts}) faults=${r.faults}`,
      );
      if (values.verbose) console.log(lines.join('\n'));
    } catch (e) {
      failed++;
      console.log(`seed ${seed}: FAILED ${(e as Error).message}`);
      console.log(`  replay: npm run soak -- --start ${seed} --seeds 1 --verbose`);
      console.log(lines.join('\n'));
    }
  }
  console.log(
    `${count - failed}/${count} seeds passed in ${((Date.now() - started) / 1000).toFixed(0)} s${failed ? `; ${failed} FAILED` : ''}`,
  );
  if (failed) process.exitCode = 1;
}

async function soakHttp(start: number, seeds: number, requests: number): Promise<void> {
  let failed = 0;
  for (let seed = start; seed < start + seeds; seed++) {
    const server = await startFuzzServer();
    try {
      const r = await runHttpFuzz(server, seed, requests);
      console.log(`http seed ${seed}: ${r.failures.length ? 'FAILED' : 'ok'}  ${JSON.stringify(r.byStatus)}`);
      for (const f of r.failures) console.log(`  ${f}`);
      if (r.failures.length) failed++;
    } finally {
      await server.close();
    }
  }
  console.log(`${seeds - failed}/${seeds} http seeds passed${failed ? `; ${failed} FAILED` : ''}`);
  if (failed) process.exitCode = 1;
}
