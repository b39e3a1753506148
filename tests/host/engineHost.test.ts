// The engine host (issue #16 §1): the host's own entry in a real forked Node
// process, in a worker thread, and as the built bundle (out/main/engineHost.js,
// what the desktop app starts with utilityProcess.fork), driven by the same
// supervisor the Electron main process uses. Calls come back with results and
// the contract's error bodies; sync events are pushed; API keys stay with the
// parent; a killed host is restarted and its pending calls fail UNAVAILABLE;
// the host holds the data directory's lock.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Code } from '../../src-shared/errors';
import { DataDirBusyError } from '../../src-main/db/dataDirLock';
import { openEngine } from '../../src-main/engine';
import type { CallResult } from '../../src-main/host/protocol';
import { createMemorySecretStore, type SecretStore } from '../../src-main/sync/secretStore';
import { EngineHostSupervisor } from '../../src-main/host/supervisor';
import { launcherFor, startTestHost, type HostRunner, type TestHost } from '../support/engineHost';
import { ensureMainBuilt } from '../support/mainBundle';
import { startTestServer, type TestServer } from '../support/testServer';
import { startRemote, type RemoteServer } from '../sync/helpers';

const RUNNERS: HostRunner[] = ['fork', 'worker', 'built-fork'];

/** Polls until `check` holds (the host answers asynchronously); fails with `what` after `ms`. */
async function waitFor(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function data(result: CallResult): any {
  if (!result.ok) throw new Error(`call failed: ${JSON.stringify(result.error)}`);
  return result.data;
}

/** Every byte stored under `dir` (the database, its WAL, uploaded files, lock files). */
function storedBytes(dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, entry);
    if (statSync(path).isFile()) parts.push(readFileSync(path));
  }
  return Buffer.concat(parts);
}

/** A parent secret store that records what the host asked for and can hold a `set` open. */
function watchedSecrets(): SecretStore & { asked: string[]; holdSets: boolean } {
  const inner = createMemorySecretStore();
  const store = {
    asked: [] as string[],
    holdSets: false,
    get: (name: string) => (store.asked.push(`get ${name}`), inner.get(name)),
    set: (name: string, value: string) => {
      store.asked.push(`set ${name}`);
      return store.holdSets ? new Promise<void>(() => {}) : inner.set(name, value);
    },
    delete: (name: string) => (store.asked.push(`delete ${name}`), inner.delete(name)),
  };
  return store;
}

describe.each(RUNNERS)('engine host (%s)', (runner) => {
  let host: TestHost;
  let http: TestServer;

  beforeAll(async () => {
    [host, http] = await Promise.all([startTestHost({ runner }), startTestServer()]);
  });
  afterAll(async () => {
    await host?.close();
    await http?.close();
  });

  test('answers calls with the operation results, as the directory owner', async () => {
    const me = data(await host.supervisor.call('GetMe', {}));
    expect(me.userEmail).toBe('engineer@outpost.local');
    const created = data(await host.supervisor.call('CreateAsset', { name: `Rig ${runner}` }));
    expect(created.asset.name).toBe(`Rig ${runner}`);
    const got = data(await host.supervisor.call('GetAsset', { assetId: created.asset.assetId }));
    expect(got).toEqual(created);
    const listed = data(await host.supervisor.call('ListAssets', { filter: `name == "Rig ${runner}"` }));
    expect(listed.assets.map((a: { assetId: string }) => a.assetId)).toEqual([created.asset.assetId]);
    expect(await host.supervisor.ping()).toEqual({ ok: true, data: null });
  });

  test('a JSON response crosses the port as its JSON text (what main forwards untouched); a download as bytes', async () => {
    const created = data(await host.supervisor.call('CreateAsset', { name: `Text ${runner}` }));
    const reply = await host.supervisor.forward('GetAsset', { assetId: created.asset.assetId });
    expect(typeof reply).toBe('string');
    expect(JSON.parse(reply as string)).toEqual({ ok: true, data: created });
    const missing = await host.supervisor.forward('GetAsset', { assetId: '00000000-0000-4000-a000-000000000000' });
    expect(JSON.parse(missing as string)).toMatchObject({ ok: false, error: { code: Code.NOT_FOUND } });
    const bytes = new TextEncoder().encode('time,pressure\n0,101.3\n');
    const uploaded = data(
      await host.supervisor.call('UploadArtifact', { file: { fileName: 'p.csv', mimeType: 'text/csv', bytes }, title: `Trace ${runner}` }),
    );
    const download = await host.supervisor.forward('DownloadArtifactContent', { artifactId: uploaded.artifact.artifactId });
    expect(typeof download).toBe('object');
    const content = data(download as CallResult);
    expect(content).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(content)).toBe('time,pressure\n0,101.3\n');
  });

  test("a bad request gets the HTTP API's error body: INVALID_ARGUMENT naming each field (the shared zod schema)", async () => {
    const bad = { name: '', startTime: 'yesterday', endTime: '2026-09-01T00:01:00Z' };
    const result = await host.supervisor.call('CreateAnnotation', bad);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe(Code.INVALID_ARGUMENT);
    const fields = (result.error.details[0] as { fieldViolations: { field: string }[] }).fieldViolations.map((v) => v.field);
    expect(fields).toEqual(['name', 'start_time']);
    const overHttp = await http.api('POST', '/api/v1/annotations', bad);
    expect(overHttp.status).toBe(400);
    expect(result.error).toEqual(overHttp.body);
    // Nothing was written.
    expect(data(await host.supervisor.call('ListAnnotations', {})).annotations).toEqual([]);
  });

  test('an unknown operation is UNIMPLEMENTED; a request that is not an object is INVALID_ARGUMENT naming it', async () => {
    const unknown = await host.supervisor.call('DropAllTables', {});
    expect(unknown).toMatchObject({ ok: false, error: { code: Code.UNIMPLEMENTED, message: "unknown operation 'DropAllTables'" } });
    const notObject = await host.supervisor.call('ListAssets', ['filter']);
    expect(notObject).toMatchObject({
      ok: false,
      error: { code: Code.INVALID_ARGUMENT, details: [{ fieldViolations: [{ field: 'request' }] }] },
    });
  });

  test('holds the data directory: a second openEngine there is refused naming the desktop host', () => {
    let refused: unknown;
    try {
      openEngine(host.dataDir).close();
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(DataDirBusyError);
    expect((refused as DataDirBusyError).holder).toMatchObject({ command: 'desktop', pid: host.supervisor.pid ?? process.pid });
  });
});

describe.each(RUNNERS)('engine host (%s) with a remote', (runner) => {
  let remote: RemoteServer;
  let host: TestHost;
  let secrets: ReturnType<typeof watchedSecrets>;

  beforeAll(async () => {
    remote = await startRemote();
    secrets = watchedSecrets();
    host = await startTestHost({ runner, secrets, init: { backgroundSync: true } });
  });
  afterAll(async () => {
    await host?.close();
    await remote?.close();
  });

  test('the API key goes to the parent, never into the host’s storage; sync status and progress are pushed', async () => {
    // Something to pull, so the run reports progress.
    await remote.client.CreateAnnotation({
      name: 'From the remote',
      startTime: '2026-09-01T00:00:00Z',
      endTime: '2026-09-01T00:01:00Z',
      assets: ['Sync-Rig-1'],
    });
    const configured = data(await host.supervisor.call('ConfigureSyncRemote', { baseUrl: remote.url, apiKey: remote.token }));
    expect(configured.remote).toMatchObject({ hasApiKey: true });
    expect(JSON.stringify(configured)).not.toContain(remote.token);
    const setName = secrets.asked.find((a) => a.startsWith('set '))!.slice(4);
    expect(await secrets.get(setName)).toBe(remote.token);
    await waitFor('a finished sync run', () =>
      host.events.some(
        (e) => e.type === 'sync-status' && e.running === false && (e.status as { lastSuccessDate?: string | null })?.lastSuccessDate,
      ),
    );
    const types = new Set(host.events.map((e) => e.type));
    // The pulled annotation is announced on the change feed too (the views refresh from it).
    expect(types).toEqual(new Set(['sync-status', 'sync-progress', 'changes']));
    expect(host.events.some((e) => e.type === 'sync-status' && e.running === true)).toBe(true);
    // The run asked the parent for the key, and it worked: the remote's annotation is here.
    expect(secrets.asked).toContain(`get ${setName}`);
    const local = data(await host.supervisor.call('ListAnnotations', {}));
    expect(local.annotations.map((a: { name: string }) => a.name)).toEqual(['From the remote']);
    expect(storedBytes(host.dataDir).includes(Buffer.from(remote.token))).toBe(false);
  });
});

describe.each(RUNNERS)('a killed engine host (%s)', (runner) => {
  let host: TestHost;
  let secrets: ReturnType<typeof watchedSecrets>;
  /** A real remote: a link is checked (it answers, takes the key) before its key is stored. */
  let remote: RemoteServer;

  beforeAll(async () => {
    secrets = watchedSecrets();
    remote = await startRemote();
    host = await startTestHost({ runner, secrets });
  });
  afterAll(async () => {
    await host?.close();
    await remote?.close();
  });

  /** kill -9 of a forked host; a worker thread is terminated (the nearest a thread has). */
  const killHost = () => {
    const pid = host.supervisor.pid;
    if (pid !== undefined) process.kill(pid, 'SIGKILL');
    else host.processes.at(-1)!.kill();
  };

  test('pending calls fail with UNAVAILABLE, a new host answers, and an acknowledged write is still there', async () => {
    const firstPid = host.supervisor.pid;
    const acknowledged = data(await host.supervisor.call('CreateAsset', { name: 'Written before the crash' }));
    // A call held inside the host: it waits for the parent's secret store, which never answers.
    secrets.holdSets = true;
    const pending = host.supervisor.call('ConfigureSyncRemote', { baseUrl: remote.url, apiKey: remote.token });
    await waitFor('the host to ask for the secret', () => secrets.asked.some((a) => a.startsWith('set ')));
    killHost();
    const failed = await pending;
    expect(failed).toMatchObject({ ok: false, error: { code: Code.UNAVAILABLE } });
    expect(failed.ok === false && failed.error.code).toBe(14);
    expect(failed.ok === false && failed.error.message).toMatch(/stopped unexpectedly/);
    secrets.holdSets = false;

    await host.supervisor.whenReady();
    // 'restarting' is reported twice: when the death is noticed, and when the new host is launched.
    const states = host.states.map((s) => s.state).filter((s, i, all) => s !== all[i - 1]);
    expect(states).toEqual(['starting', 'ready', 'restarting', 'ready']);
    if (firstPid !== undefined) expect(host.states[2].detail).toBe('the engine was killed; restarting it');
    expect(host.processes).toHaveLength(2);
    if (firstPid !== undefined) expect(host.supervisor.pid).not.toBe(firstPid);
    const after = data(await host.supervisor.call('GetAsset', { assetId: acknowledged.asset.assetId }));
    expect(after).toEqual(acknowledged);
    // The new host holds the directory again.
    expect(() => openEngine(host.dataDir).close()).toThrow(DataDirBusyError);
  });

  test('after a clean shutdown the directory is free again', async () => {
    await host.supervisor.stop();
    expect(host.supervisor.state).toBe('stopped');
    expect(await host.supervisor.call('GetMe', {})).toMatchObject({ ok: false, error: { code: Code.UNAVAILABLE } });
    const engine = openEngine(host.dataDir);
    engine.close();
  });
});

describe.each(RUNNERS)('an engine host that cannot open the profile (%s)', (runner) => {
  test('is not restarted: start fails naming why, and calls are UNAVAILABLE with that reason', async () => {
    if (runner.startsWith('built-')) await ensureMainBuilt();
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-host-busy-'));
    // Another Outpost process (this one) holds the directory.
    const holder = openEngine(dataDir, { holder: { command: 'serve' } });
    let launches = 0;
    const launch = launcherFor(runner);
    const supervisor = new EngineHostSupervisor({
      launch: () => (launches++, launch()),
      init: { dataDir },
      secrets: createMemorySecretStore(),
      restartDelayMs: () => 0,
    });
    try {
      await expect(supervisor.start()).rejects.toThrow(/ is in use by outpost serve \(pid \d+\): stop it .*Nothing was changed\.$/);
      expect(supervisor.state).toBe('failed');
      expect(launches).toBe(1);
      const call = await supervisor.call('GetMe', {});
      expect(call).toMatchObject({ ok: false, error: { code: Code.UNAVAILABLE } });
      expect(call.ok === false && call.error.message).toMatch(/is in use by outpost serve/);
    } finally {
      await supervisor.stop();
      holder.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('an engine host that keeps dying (fork)', () => {
  test('is given up after the allowed restarts: failed, calls UNAVAILABLE saying so, no further process', async () => {
    const host = await startTestHost({ runner: 'fork', maxRestarts: 1 });
    try {
      for (let death = 1; death <= 2; death++) {
        const pid = host.supervisor.pid!;
        const gone = new Promise<void>((resolve) => host.processes.at(-1)!.onExit(() => resolve()));
        process.kill(pid, 'SIGKILL');
        await gone;
        if (death === 1) await host.supervisor.whenReady();
      }
      expect(host.supervisor.state).toBe('failed');
      await expect(host.supervisor.whenReady()).rejects.toThrow(
        /the engine stopped 2 times within 60 s \(last: it was killed\); see the log file/,
      );
      const call = await host.supervisor.call('GetMe', {});
      expect(call).toMatchObject({ ok: false, error: { code: Code.UNAVAILABLE, message: expect.stringMatching(/stopped 2 times/) } });
      expect(host.processes).toHaveLength(2);
      expect(host.states.at(-1)!.state).toBe('failed');
    } finally {
      await host.close();
    }
  });
});
