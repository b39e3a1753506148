// The remote's CPU per listed row: a sync replica's initial pull reads every
// annotation (ListAnnotations by modified_date) and every log
// (ListAllAnnotationLogs) in pages of 1000, and on a 2-core machine the
// server's CPU per row bounds that pull. Seeds the demo dataset scaled up
// (--rows, default 100k annotations with ~245k logs; --data DIR keeps it
// between runs), then (1) runs the pages in this process (invoke, then
// JSON.stringify and Buffer.from as sendJson does) to split the cost between
// the handler and the serialization, and (2) lists everything through a real
// `outpost serve` process and reads that process's CPU time (Linux /proc),
// HTTP included: the number that bounds a pull. Prints medians of --repeat
// passes; never asserts times (the machine may be shared: it says how busy).
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createApiKey } from '../src-main/auth/apiKeys';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, loadCaller } from '../src-main/auth/identity';
import { openEngine } from '../src-main/engine';
import { seedDemoData } from '../src-main/seed/seedDemoData';
import { invoke } from '../src-main/services/invoke';
import { processCpuSeconds, serveOutpost } from './support/processes';

const PAGE_SIZE = 1000;
/** Issue #18 target 1: server CPU per listed annotation at pageSize 1000. */
const GOAL_US_PER_ANNOTATION = 8;
/** Issue #33 goal 4: a one-row ListAnnotations' server CPU over a ping's on the same kept-alive connection. */
const GOAL_ONE_ROW_OVER_PING = 2;
const ONE_ROW_REQUESTS = 2000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs: number[], digits = 2) => `${median(xs).toFixed(digits)} (runs: ${xs.map((x) => x.toFixed(digits)).join(', ')})`;
const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

/** CPU seconds used so far by the whole machine (all processes; Linux /proc/stat); NaN elsewhere. */
function machineCpu(): number {
  try {
    // user nice system idle iowait irq softirq steal, in clock ticks
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return (f[0] + f[1] + f[2] + f[5] + f[6] + f[7]) / 100;
  } catch {
    return NaN;
  }
}

/** GET on a kept-alive connection: the body of a 200 answer. */
function getOk(agent: Agent, url: string, token: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}: ${body.toString().slice(0, 300)}`));
        resolve(body);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A list page on a kept-alive connection: the body's length, its list's length and its nextPageToken. */
async function getPage(
  agent: Agent,
  url: string,
  token: string,
  listField: string,
): Promise<{ bytes: number; nextPageToken: string; rows: number }> {
  const body = await getOk(agent, url, token);
  const page = JSON.parse(body.toString()) as Record<string, unknown>;
  return { bytes: body.length, nextPageToken: (page.nextPageToken as string) ?? '', rows: (page[listField] as unknown[]).length };
}

interface Listing {
  label: string;
  path: string;
  query: Record<string, string>;
  operation: 'ListAnnotations' | 'ListAllAnnotationLogs';
  listField: string;
}

const LISTINGS: Listing[] = [
  {
    label: 'ListAnnotations',
    path: '/api/v1/annotations',
    query: { order_by: 'modified_date' },
    operation: 'ListAnnotations',
    listField: 'annotations',
  },
  {
    label: 'ListAllAnnotationLogs',
    path: '/api/v1/annotation-logs',
    query: {},
    operation: 'ListAllAnnotationLogs',
    listField: 'annotationLogs',
  },
];

async function listOverHttp(
  agent: Agent,
  base: string,
  token: string,
  l: Listing,
): Promise<{ rows: number; bytes: number; pages: number }> {
  let pageToken = '';
  let rows = 0;
  let bytes = 0;
  let pages = 0;
  do {
    const q = new URLSearchParams({ ...l.query, page_size: String(PAGE_SIZE), ...(pageToken ? { page_token: pageToken } : {}) });
    const page = await getPage(agent, `${base}${l.path}?${q}`, token, l.listField);
    rows += page.rows;
    bytes += page.bytes;
    pages++;
    pageToken = page.nextPageToken;
  } while (pageToken);
  return { rows, bytes, pages };
}

export async function main(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      rows: { type: 'string', default: '100000' },
      repeat: { type: 'string', default: '5' },
      data: { type: 'string' },
      'in-process-only': { type: 'boolean' },
    },
    strict: false,
  });
  const rows = Number(values.rows);
  const repeat = Number(values.repeat);
  // --data DIR keeps the seeded database between runs (seeded when DIR holds none yet).
  const dataDir = (values.data as string | undefined) ?? mkdtempSync(join(tmpdir(), 'outpost-bench-listing-'));
  let server: ChildProcess | undefined;
  try {
    const engine = openEngine(dataDir);
    let annotations = engine.db.get<{ n: number }>('SELECT count(*) AS n FROM annotations')!.n;
    if (annotations === 0) {
      const t0 = performance.now();
      annotations = seedDemoData(engine.db, { annotations: rows, ids: 'random' }).annotations;
      console.log(`seeded ${annotations} annotations in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    const logs = engine.db.get<{ n: number }>('SELECT count(*) AS n FROM annotation_logs')!.n;
    const token = createApiKey(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME, 'bench').token;
    console.log(
      `dataset: ${annotations} annotations, ${logs} annotation logs; pages of ${PAGE_SIZE}; ${availableParallelism()} CPUs; ${load()}`,
    );

    // (1) In process: the handler (query + rows -> wire objects) and the serialization, timed apart.
    const userId = engine.db.get<{ id: string }>('SELECT id FROM users WHERE user_name = ?', [DEFAULT_USER_NAME])!.id;
    const ctx = { engine, db: engine.db, caller: loadCaller(engine.db, userId)! };
    console.log(
      `\nin process (invoke, then JSON.stringify + Buffer.from as sendJson does), us of CPU per listed row, median of ${repeat}:`,
    );
    for (const l of LISTINGS) {
      const handler: number[] = [];
      const serialize: number[] = [];
      const total: number[] = [];
      for (let r = 0; r < repeat; r++) {
        let listed = 0;
        let handlerUs = 0;
        let serializeUs = 0;
        let pageToken: string | undefined;
        const c0 = process.cpuUsage();
        do {
          const a = process.cpuUsage();
          const res = (await invoke(ctx, l.operation, { ...l.query, page_size: String(PAGE_SIZE), page_token: pageToken })) as Record<
            string,
            unknown
          >;
          const b = process.cpuUsage(a);
          const bytes = Buffer.from(JSON.stringify(res), 'utf8');
          const c = process.cpuUsage(a);
          handlerUs += b.user + b.system;
          serializeUs += c.user + c.system - (b.user + b.system);
          listed += (res[l.listField] as unknown[]).length;
          pageToken = (res.nextPageToken as string) || undefined;
          if (bytes.length === 0) throw new Error('empty body');
        } while (pageToken);
        const all = process.cpuUsage(c0);
        handler.push(handlerUs / listed);
        serialize.push(serializeUs / listed);
        total.push((all.user + all.system) / listed);
      }
      console.log(`  ${l.label.padEnd(22)} total ${fmt(total)}`);
      console.log(`  ${''.padEnd(22)} handler ${median(handler).toFixed(2)}, JSON.stringify + Buffer.from ${median(serialize).toFixed(2)}`);
    }
    engine.close();
    if (values['in-process-only']) return;

    // (2) Through a real `outpost serve`: its process's CPU per listed row, HTTP included.
    const started = await serveOutpost(dataDir);
    server = started.child;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // One warm-up pass of each (statement caches, JIT, page cache).
    for (const l of LISTINGS) await listOverHttp(agent, started.url, token, l);
    console.log(
      `\nthrough \`outpost serve\` (HTTP, keep-alive, one request at a time), us of the server's CPU per listed row, median of ${repeat}; ${load()}:`,
    );
    for (const l of LISTINGS) {
      const cpuPerRow: number[] = [];
      const wallRate: number[] = [];
      const others: number[] = [];
      let last = { rows: 0, bytes: 0, pages: 0 };
      for (let r = 0; r < repeat; r++) {
        const c0 = processCpuSeconds(server.pid!);
        const b0 = process.cpuUsage();
        const m0 = machineCpu();
        const t0 = performance.now();
        last = await listOverHttp(agent, started.url, token, l);
        const ms = performance.now() - t0;
        const cpu = processCpuSeconds(server.pid!) - c0;
        const b = process.cpuUsage(b0);
        cpuPerRow.push((cpu * 1e6) / last.rows);
        wallRate.push(last.rows / (ms / 1000));
        // Cores busy with neither the server nor this client: a shared machine's noise.
        others.push((machineCpu() - m0 - cpu - (b.user + b.system) / 1e6) / (ms / 1000));
      }
      const cpuMedian = median(cpuPerRow);
      const goal = l.operation === 'ListAnnotations' ? ` (goal <= ${GOAL_US_PER_ANNOTATION} us/annotation, issue #18 target 1)` : '';
      console.log(
        `  ${l.label.padEnd(22)} ${fmt(cpuPerRow)} us/row${goal} -> at most ${Math.round(1e6 / cpuMedian)} rows/s on one idle core`,
      );
      console.log(
        `  ${''.padEnd(22)} ${last.rows} rows in ${last.pages} pages, ${(last.bytes / last.rows).toFixed(0)} bytes/row; wall ${Math.round(median(wallRate))} rows/s; ` +
          `other processes busy ${Math.max(0, median(others)).toFixed(2)} cores`,
      );
    }
    // One-row pages: the fixed cost of a list request (auth, page token, query, response), paging by modified_date.
    const perRequest: number[] = [];
    for (let r = 0; r < repeat; r++) {
      let pageToken = '';
      const c0 = processCpuSeconds(server.pid!);
      for (let i = 0; i < ONE_ROW_REQUESTS; i++) {
        const q = new URLSearchParams({ order_by: 'modified_date', page_size: '1', ...(pageToken ? { page_token: pageToken } : {}) });
        pageToken = (await getPage(agent, `${started.url}/api/v1/annotations?${q}`, token, 'annotations')).nextPageToken;
      }
      perRequest.push(((processCpuSeconds(server.pid!) - c0) * 1e6) / ONE_ROW_REQUESTS);
    }
    // The floor under it: GET /api/v1/ping (HTTP and routing; public, so no key is checked) on the same connection.
    /** The server's CPU per request (us) of ONE_ROW_REQUESTS GETs of `path`, once per repeat. */
    const cpuPerGet = async (path: string): Promise<number[]> => {
      const perRun: number[] = [];
      for (let r = 0; r < repeat; r++) {
        const c0 = processCpuSeconds(server!.pid!);
        for (let i = 0; i < ONE_ROW_REQUESTS; i++) await getOk(agent, `${started.url}${path}`, token);
        perRun.push(((processCpuSeconds(server!.pid!) - c0) * 1e6) / ONE_ROW_REQUESTS);
      }
      return perRun;
    };
    const perPing = await cpuPerGet('/api/v1/ping');
    // Beside it, for the decision the goal waits on: Ping is public (no key checked, no policy decided); GetMe is the
    // cheapest authenticated call (the key, the caller, its organizations), so its ratio shows what a list adds.
    const perMe = await cpuPerGet('/api/v2/me');
    console.log(`  ListAnnotations, 1 row  ${fmt(perRequest, 1)} us of server CPU per request (${ONE_ROW_REQUESTS} requests)`);
    console.log(`  Ping (the floor)       ${fmt(perPing, 1)} us of server CPU per request, same connection (public: no key checked)`);
    console.log(`  GetMe (authenticated)  ${fmt(perMe, 1)} us of server CPU per request, same connection`);
    console.log(
      `  fixed cost of a request: ${(median(perRequest) / median(perPing)).toFixed(2)}x the ping floor (goal <= ${GOAL_ONE_ROW_OVER_PING}x, issue #33 goal 4); ` +
        `${(median(perRequest) / median(perMe)).toFixed(2)}x an authenticated GetMe`,
    );
    agent.destroy();
    console.log(`  (${load()})`);
  } finally {
    if (server) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    if (!values.data) rmSync(dataDir, { recursive: true, force: true });
    else if (!existsSync(dataDir)) console.log(`(data directory ${dataDir} is gone)`);
  }
}
