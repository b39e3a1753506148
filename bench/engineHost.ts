// The cost of the engine's own process (issue #16): a list page of 50
// annotations as the renderer receives it, (1) as the app did before the
// host: the in-process service call (the host's dispatch) plus the one
// structured clone Electron's IPC made of the result for the window; and
// (2) through the engine host in its own process, as the app does now: the
// supervisor's `forward` (the host answers a JSON response as its JSON text),
// one structured clone of that reply (main forwards it to the window
// untouched) and the renderer transport's one parse (readBridgeReply). The
// host runs once in a worker thread (a MessagePort, the closest stand-in for
// Electron's utilityProcess port) and once forked (the built
// out/main/engineHost.js with an IPC channel; Node's `advanced` v8.serialize
// channel). Prints calls/s, p50 and p99 of each, the ratios and the goal
// (≤ 1.3× for a page of 50). Then (3): while the host runs a long call (a
// bulk archive of --archive rows), how late the caller's own event loop runs
// (what keeps a window answering). Never asserts times: the machine may be
// shared (it prints the load).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from '../src-main/auth/identity';
import { openEngine } from '../src-main/engine';
import { readBridgeReply, type BridgeReply } from '../src-shared/bridge';
import { dispatch } from '../src-main/host/dispatch';
import { forkLauncher, workerLauncher } from '../src-main/host/nodeLaunchers';
import type { CallResult } from '../src-main/host/protocol';
import { EngineHostSupervisor } from '../src-main/host/supervisor';
import { seedDemoData } from '../src-main/seed/seedDemoData';
import { syncReplica } from '../src-main/sync/assembly/syncReplica';
import { createMemorySecretStore } from '../src-main/sync/secretStore';
import { BUILT_HOST, ensureMainBuilt } from '../tests/support/mainBundle';

const GOAL = 1.3;
const PAGE = { pageSize: 50, orderBy: 'modified_date desc' };

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

interface Timing {
  callsPerSecond: number;
  p50: number;
  p99: number;
}

/** `calls` sequential calls after `warmup` unmeasured ones; each must succeed with a full page. */
async function time(call: () => Promise<CallResult>, calls: number, warmup: number): Promise<Timing> {
  const check = (r: CallResult) => {
    if (!r.ok) throw new Error(`call failed: ${JSON.stringify(r.error)}`);
    if ((r.data as { annotations: unknown[] }).annotations.length !== PAGE.pageSize) throw new Error('not a full page');
  };
  for (let i = 0; i < warmup; i++) check(await call());
  const each: number[] = [];
  const start = performance.now();
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    check(await call());
    each.push(performance.now() - t);
  }
  const total = performance.now() - start;
  return { callsPerSecond: (calls / total) * 1000, p50: quantile(each, 0.5), p99: quantile(each, 0.99) };
}

const show = (label: string, t: Timing) =>
  console.log(
    `${label.padEnd(22)} ${t.callsPerSecond.toFixed(0).padStart(6)} calls/s   p50 ${t.p50.toFixed(3)} ms   p99 ${t.p99.toFixed(3)} ms`,
  );

export async function main(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      calls: { type: 'string', default: '2000' },
      annotations: { type: 'string', default: '5000' },
      archive: { type: 'string', default: '20000' },
    },
    allowPositionals: true,
  });
  const calls = Number(values.calls);
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-bench-host-'));
  try {
    // One profile, used in turn: in process, then by the host (one process holds a data directory).
    const engine = openEngine(dataDir, { replica: syncReplica() });
    seedDemoData(engine.db, { annotations: Number(values.annotations) });
    const { userId } = ensureMember(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME);
    const caller = { ...loadCaller(engine.db, userId)!, owner: true };
    const host = { context: () => ({ engine, db: engine.db, caller }) };
    const inProcess = await time(() => dispatch(host, 'ListAnnotations', PAGE), calls, 200);
    // What the renderer got before the host: the in-process result, structured-cloned by Electron's IPC to the window.
    const direct = await time(async () => structuredClone(await dispatch(host, 'ListAnnotations', PAGE)), calls, 200);
    engine.close();
    // What the renderer gets now: the host's reply, cloned once more by main's forward to the window, parsed there once.
    const toRenderer = (reply: BridgeReply) => readBridgeReply(structuredClone(reply));

    await ensureMainBuilt();
    // A worker thread first (a MessagePort in this process), then the forked process the app's host is.
    const worker = new EngineHostSupervisor({ launch: workerLauncher(BUILT_HOST), init: { dataDir }, secrets: createMemorySecretStore() });
    await worker.start();
    const throughWorker = await time(async () => toRenderer(await worker.forward('ListAnnotations', PAGE)), calls, 200);
    await worker.stop();
    const supervisor = new EngineHostSupervisor({
      launch: forkLauncher(BUILT_HOST),
      init: { dataDir },
      secrets: createMemorySecretStore(),
    });
    await supervisor.start();
    const throughHost = await time(async () => toRenderer(await supervisor.forward('ListAnnotations', PAGE)), calls, 200);
    const pingTimes: number[] = [];
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      await supervisor.ping();
      pingTimes.push(performance.now() - t);
    }

    console.log(
      `ListAnnotations, page of ${PAGE.pageSize}, ${calls} sequential calls (${values.annotations} annotations; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
    );
    show('in process (no IPC)', inProcess);
    show('direct (before host)', direct);
    show('host in a worker', throughWorker);
    show('host in a process', throughHost);
    console.log(
      `the process channel alone (ping): p50 ${quantile(pingTimes, 0.5).toFixed(3)} ms, p99 ${quantile(pingTimes, 0.99).toFixed(3)} ms`,
    );
    for (const [label, t] of [
      ['worker', throughWorker],
      ['process', throughHost],
    ] as const) {
      const ratio = t.p50 / direct.p50;
      console.log(
        `ratio ${label} host / direct: p50 ${ratio.toFixed(2)}×, p99 ${(t.p99 / direct.p99).toFixed(2)}×, calls/s ${(direct.callsPerSecond / t.callsPerSecond).toFixed(2)}×   (goal ≤ ${GOAL}×: ${ratio <= GOAL ? 'met' : 'NOT met'})`,
      );
    }

    // (3) The caller while the host works: a bulk archive of many rows runs there; here, timers keep firing.
    const ids = (await supervisor.call('ListAnnotations', { pageSize: 1000 })) as {
      ok: true;
      data: { annotations: { annotationId: string }[] };
    };
    const some = ids.data.annotations.map((a) => a.annotationId);
    const target = Number(values.archive);
    const delay = monitorEventLoopDelay({ resolution: 1 });
    const pings: number[] = [];
    delay.enable();
    const started = performance.now();
    let archived = 0;
    const work = (async () => {
      while (archived < target) {
        const batch = some.slice(0, Math.min(1000, target - archived));
        const r = await supervisor.call(archived % 2000 === 0 ? 'BatchArchiveAnnotations' : 'BatchUnarchiveAnnotations', {
          annotationIds: batch,
        });
        if (!r.ok) throw new Error(JSON.stringify(r.error));
        archived += batch.length;
      }
    })();
    while (archived < target) {
      const t = performance.now();
      const pong = await supervisor.ping();
      if (!pong.ok) throw new Error('ping failed');
      pings.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 5));
    }
    await work;
    delay.disable();
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `while the host archived/unarchived ${target} rows in batches of 1000 (${seconds.toFixed(1)} s): caller event-loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms; ` +
        `host ping p50 ${quantile(pings, 0.5).toFixed(1)} ms, max ${Math.max(...pings).toFixed(1)} ms (${pings.length} pings; a ping waits for the batch the host is running)`,
    );
    await supervisor.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
