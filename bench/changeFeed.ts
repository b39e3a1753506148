// The cost of the change feed to writers (issue #30): UpdateAnnotation over
// HTTP, one after another, with no feed clients, then with 1,000 open
// connections to GET /api/v1/outpost/changes (held by a child process: 900
// reading every event, 100 never reading, which the server drops once their
// unread output passes its limit), in alternating rounds. Prints the median
// write latency of each and their ratio; goal beside: <= 1.10. Never asserts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CHANGES_PATH } from '../src-shared/api/changes';
import { createApiKey } from '../src-main/auth/apiKeys';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from '../src-main/auth/identity';
import { openEngine } from '../src-main/engine';
import { createApiServer, listen } from '../src-main/http/server';
import { seedDemoData } from '../src-main/seed/seedDemoData';

const CLIENTS = 1000;
const SILENT = 100;
const WRITES = 400;
const ROUNDS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A child process holding `n` feed connections (the first `silent` never read); resolves once all are open. */
function holdFeeds(url: string, token: string, n: number, silent: number): Promise<ChildProcess> {
  const script = `
    const net = require('node:net');
    const { hostname, port } = new URL(${JSON.stringify(url)});
    let open = 0;
    for (let i = 0; i < ${n}; i++) {
      const s = net.connect(Number(port), hostname, () => {
        s.write('GET ${CHANGES_PATH} HTTP/1.1\\r\\nHost: ' + hostname + '\\r\\nAuthorization: Bearer ${token}\\r\\n\\r\\n');
      });
      let counted = false;
      s.on('data', () => { if (!counted) { counted = true; if (++open === ${n}) process.stdout.write('open\\n'); } if (i < ${silent}) s.pause(); });
      s.on('error', () => {});
    }`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('open') && resolve(child));
    child.on('exit', (code) => reject(new Error(`the feed clients exited ${code}`)));
  });
}

export async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-bench-feed-'));
  const engine = openEngine(dir);
  const server = createApiServer(engine);
  try {
    seedDemoData(engine.db, { annotations: 500 });
    const token = createApiKey(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME, 'bench', { owner: true }).token;
    const url = await listen(server, 0);
    const ids = engine.db.all<{ id: string }>('SELECT id FROM annotations LIMIT 50').map((r) => r.id);
    let n = 0;
    const writes = async (): Promise<number> => {
      const t0 = performance.now();
      for (let i = 0; i < WRITES; i++) {
        const res = await fetch(`${url}/api/v1/annotations`, {
          method: 'PATCH',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            annotation: { annotationId: ids[n % ids.length], description: `edit ${n++}` },
            updateMask: 'description',
          }),
        });
        if (res.status !== 200) throw new Error(`write failed: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }
      return ((performance.now() - t0) * 1000) / WRITES;
    };
    await writes(); // warm
    const bare: number[] = [];
    const withFeeds: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      bare.push(await writes());
      const clients = await holdFeeds(url, token, CLIENTS, SILENT);
      try {
        withFeeds.push(await writes());
      } finally {
        clients.kill('SIGKILL');
        await new Promise((resolve) => clients.once('exit', resolve));
        await new Promise((resolve) => setTimeout(resolve, 500)); // the server sees the connections close
      }
    }
    const ratios = withFeeds.map((x, i) => x / bare[i]);
    console.log(`load ${loadavg()[0].toFixed(2)}; ${WRITES} UpdateAnnotation over HTTP per round, ${ROUNDS} rounds`);
    console.log(`write latency, no feed clients:        ${median(bare).toFixed(0)} us`);
    console.log(`write latency, ${CLIENTS} feed connections: ${median(withFeeds).toFixed(0)} us`);
    console.log(
      `ratio (median of rounds): ${median(ratios).toFixed(3)}  (goal <= 1.10)  rounds: ${ratios.map((x) => x.toFixed(3)).join(' ')}`,
    );
  } finally {
    server.closeAllConnections();
    server.close();
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
