// The engine cannot hang the window (#29 item 3), with the built host in a
// real child process: the supervisor pings it, and a host blocked in a
// synchronous loop is found within 5 s, killed and replaced, its pending
// calls failing UNAVAILABLE; a call that runs past its deadline without
// progress fails DEADLINE_EXCEEDED while the host lives on; a long import that
// reports progress runs past many deadlines and completes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Code } from '../../src-shared/errors';
import { generateLargeReport } from '../../bench/testReportImport';
import { startTestHost, type TestHost } from '../support/engineHost';

const hosts: TestHost[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

async function waitFor(what: string, check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const block = (host: TestHost, ms?: number) =>
  host.processes.at(-1)!.postMessage({ kind: 'test-block-event-loop', ...(ms === undefined ? {} : { ms }) } as never);

describe('engine host liveness and call deadlines (built host, real child process)', () => {
  test('a host blocked in a synchronous loop is found within 5 s, killed and replaced; its pending call fails UNAVAILABLE', async () => {
    // The supervisor's defaults, as the desktop app runs them.
    const host = await startTestHost({ runner: 'built-blockable' });
    hosts.push(host);
    expect(await host.supervisor.call('GetMe', {})).toMatchObject({ ok: true });
    const stuck = host.processes[0];
    block(host);
    const pending = host.supervisor.call('ListAnnotations', { pageSize: 1 });
    await waitFor('the hung host to be detected', () => host.states.some((s) => s.state === 'restarting'), 5_000);
    expect(await pending).toMatchObject({
      ok: false,
      error: { code: Code.UNAVAILABLE, message: expect.stringContaining('it stopped answering') },
    });
    // The window is told (the desktop app publishes every state change to it).
    expect(host.states.find((s) => s.state === 'restarting')!.detail).toBe('the engine stopped answering; restarting it');
    expect(host.logs.some((l) => /did not answer for 3500 ms: killing it/.test(l))).toBe(true);
    await host.supervisor.whenReady();
    expect(host.processes).toHaveLength(2);
    expect(host.processes[1].pid).not.toBe(stuck.pid);
    expect(await host.supervisor.call('GetMe', {})).toMatchObject({ ok: true });
    await waitFor('the stuck process to be gone', () => !isAlive(stuck.pid!), 5_000);
  });

  test('a call past its deadline without progress fails DEADLINE_EXCEEDED; a host that answers pings is kept', async () => {
    const host = await startTestHost({ runner: 'built-blockable', callTimeoutMs: 300 });
    hosts.push(host);
    block(host, 1_500); // shorter than the ping timeout: slow, not hung
    expect(await host.supervisor.call('GetMe', {})).toMatchObject({
      ok: false,
      error: { code: Code.DEADLINE_EXCEEDED, message: expect.stringMatching(/did not finish GetMe within 0 s; it may still complete/) },
    });
    // Once the host is through its slow stretch (a ping has no deadline), calls are answered again.
    expect(await host.supervisor.ping()).toEqual({ ok: true, data: null });
    expect(await host.supervisor.call('GetMe', {})).toMatchObject({ ok: true });
    expect(host.processes).toHaveLength(1);
    expect(host.states.map((s) => s.state)).toEqual(['starting', 'ready']);
  });

  test('a slow import that reports progress runs past many deadlines and completes, on the same host', async () => {
    // A 2 s deadline: an import's first stretch (its first use loads and compiles the parser, opens the
    // staging database) holds the event loop for up to ~1.3 s on these machines before its first report.
    // The file is large enough to take well past the deadline on an idle, fast machine too (40 MB: ~4 s
    // here idle; 12 MB once finished in 1.7 s on CI, under the deadline, and proved nothing).
    const host = await startTestHost({ runner: 'built-blockable', callTimeoutMs: 2_000 });
    hosts.push(host);
    let progress = 0;
    host.processes[0].onMessage((m) => void ((m as { kind?: string }).kind === 'progress' && progress++));
    const dir = mkdtempSync(join(tmpdir(), 'outpost-slow-import-'));
    dirs.push(dir);
    const file = join(dir, 'large_report.xml');
    await generateLargeReport(file, 40 * 1024 * 1024);
    const started = performance.now();
    const imported = await host.supervisor.importFile(file);
    const took = performance.now() - started;
    expect(imported).toMatchObject({ ok: true, data: { testReport: { name: expect.any(String) } } });
    // It ran past its deadline and was not cut off, because progress kept arriving (how often depends on the
    // machine's load: the heartbeat comes whenever the host's event loop comes round).
    expect(took).toBeGreaterThan(2_000);
    expect(progress).toBeGreaterThanOrEqual(4); // each restarted the 2 s deadline (one every 500 ms)
    expect(host.processes).toHaveLength(1);
    expect(host.states.map((s) => s.state)).toEqual(['starting', 'ready']);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
