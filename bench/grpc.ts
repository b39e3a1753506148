// A 1000-row ListAnnotations over gRPC (HTTP/2 cleartext, binary protobuf) against the same list over REST
// (HTTP/1.1 JSON), both from one real `outpost serve` process: the server's CPU per call (Linux /proc), the two
// interleaved round by round so a shared machine's noise falls on both. Goal (issue #32): gRPC <= 1.1x REST.
// Prints medians of --repeat rounds of --calls calls each; never asserts times.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { createApiKey } from '../src-main/auth/apiKeys';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from '../src-main/auth/identity';
import { openEngine } from '../src-main/engine';
import { registry } from '../src-main/grpc/descriptors';
import { seedDemoData } from '../src-main/seed/seedDemoData';
import { processCpuSeconds, serveOutpost } from './support/processes';

const PAGE_SIZE = 1000;
const GOAL_RATIO = 1.1;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs: number[]) => `${median(xs).toFixed(0)} (runs: ${xs.map((x) => x.toFixed(0)).join(', ')})`;

function restPage(agent: Agent, url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}`));
        resolve((JSON.parse(Buffer.concat(chunks).toString()) as { annotations: unknown[] }).annotations.length);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The server's CPU microseconds per call of `call`, over `calls` calls. */
async function cpuPerCall(pid: number, calls: number, call: () => Promise<number>): Promise<number> {
  const c0 = processCpuSeconds(pid);
  for (let i = 0; i < calls; i++) if ((await call()) !== PAGE_SIZE) throw new Error(`a page of ${PAGE_SIZE} rows expected`);
  return ((processCpuSeconds(pid) - c0) * 1e6) / calls;
}

export async function main(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { repeat: { type: 'string', default: '7' }, calls: { type: 'string', default: '20' } },
    strict: false,
  });
  const repeat = Number(values.repeat);
  const calls = Number(values.calls);
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-bench-grpc-'));
  let server: ChildProcess | undefined;
  try {
    const engine = openEngine(dataDir);
    seedDemoData(engine.db, { annotations: PAGE_SIZE + 200, ids: 'random' });
    const token = createApiKey(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME, 'bench').token;
    engine.close();

    const started = await serveOutpost(dataDir);
    server = started.child;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const restUrl = `${started.url}/api/v1/annotations?page_size=${PAGE_SIZE}`;
    const rest = () => restPage(agent, restUrl, token);
    const service = registry.getService('sift.annotations.v1.AnnotationService')!;
    const client = createClient(service, createGrpcTransport({ baseUrl: started.url })) as unknown as {
      listAnnotations(req: object, opt: object): Promise<{ annotations: unknown[] }>;
    };
    const headers = { authorization: `Bearer ${token}` };
    const grpc = async () => (await client.listAnnotations({ pageSize: PAGE_SIZE }, { headers })).annotations.length;
    // Warm-up: statement caches, JIT, the HTTP/2 session.
    for (let i = 0; i < 5; i++) await Promise.all([rest(), grpc()]);

    const restUs: number[] = [];
    const grpcUs: number[] = [];
    const ratios: number[] = [];
    for (let r = 0; r < repeat; r++) {
      // Alternate which goes first, so a drift in the machine's load does not favour one.
      const [a, b] = r % 2 ? [grpc, rest] : [rest, grpc];
      const first = await cpuPerCall(server.pid!, calls, a);
      const second = await cpuPerCall(server.pid!, calls, b);
      const [restCall, grpcCall] = r % 2 ? [second, first] : [first, second];
      restUs.push(restCall);
      grpcUs.push(grpcCall);
      ratios.push(grpcCall / restCall);
    }
    agent.destroy();
    console.log(
      `ListAnnotations, ${PAGE_SIZE} rows per call, us of the server's CPU per call, median of ${repeat} rounds of ${calls} calls:`,
    );
    console.log(`  REST (HTTP/1.1 JSON)        ${fmt(restUs)}`);
    console.log(`  gRPC (HTTP/2, protobuf)     ${fmt(grpcUs)}`);
    console.log(
      `  gRPC / REST                 ${median(ratios).toFixed(2)}x (runs: ${ratios.map((x) => x.toFixed(2)).join(', ')}; goal <= ${GOAL_RATIO}x)`,
    );
    console.log(
      `  (load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
    );
  } finally {
    server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));
