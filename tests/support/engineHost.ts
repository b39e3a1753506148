// A real engine host for tests: the host's own entry (src-main/host/main.ts)
// in a forked Node process or a worker thread, driven by the same supervisor
// the Electron main process uses. The test process plays the main process:
// it holds the secret store and receives events, logs and state changes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkLauncher, workerLauncher } from '../../src-main/host/nodeLaunchers';
import type { HostEvent, HostInit } from '../../src-main/host/protocol';
import { EngineHostSupervisor, type HostLauncher, type HostState, type SupervisorOptions } from '../../src-main/host/supervisor';
import { createMemorySecretStore, type SecretStore } from '../../src-main/sync/secretStore';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TS_ENTRY = join(REPO_ROOT, 'src-main/host/main.ts');
const WORKER_ENTRY = join(REPO_ROOT, 'tests/support/engineHostEntry.mjs');
/** The built host bundle (electron-vite build): what the packaged app runs. */
export const BUILT_ENTRY = join(REPO_ROOT, 'out/main/engineHost.js');

export type HostRunner = 'fork' | 'worker' | 'built-fork' | 'built-worker';

export function launcherFor(runner: HostRunner): HostLauncher {
  switch (runner) {
    case 'fork':
      return forkLauncher(TS_ENTRY, { execArgv: ['--import', 'tsx'], cwd: REPO_ROOT });
    case 'worker':
      return workerLauncher(WORKER_ENTRY);
    case 'built-fork':
      return forkLauncher(BUILT_ENTRY, { cwd: REPO_ROOT });
    case 'built-worker':
      return workerLauncher(BUILT_ENTRY);
  }
}

export interface TestHost {
  readonly supervisor: EngineHostSupervisor;
  readonly dataDir: string;
  /** The parent's secret store (the desktop app's safeStorage). */
  readonly secrets: SecretStore;
  readonly events: HostEvent[];
  readonly logs: string[];
  readonly states: { state: HostState; detail: string }[];
  close(): Promise<void>;
}

export interface TestHostOptions extends Partial<Omit<SupervisorOptions, 'launch' | 'init' | 'secrets'>> {
  readonly runner?: HostRunner;
  readonly dataDir?: string;
  readonly init?: Partial<HostInit>;
  readonly secrets?: SecretStore;
}

/** Starts a host and waits until its database is open. */
export async function startTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'outpost-host-'));
  const secrets = options.secrets ?? createMemorySecretStore();
  const events: HostEvent[] = [];
  const logs: string[] = [];
  const states: { state: HostState; detail: string }[] = [];
  const supervisor = new EngineHostSupervisor({
    restartDelayMs: () => 0,
    ...options,
    launch: launcherFor(options.runner ?? 'fork'),
    init: { dataDir, ...options.init },
    secrets,
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
    onLog: (level, message) => {
      logs.push(`${level}: ${message}`);
      options.onLog?.(level, message);
    },
    onStateChange: (state, detail) => {
      states.push({ state, detail });
      options.onStateChange?.(state, detail);
    },
  });
  await supervisor.start();
  return {
    supervisor,
    dataDir,
    secrets,
    events,
    logs,
    states,
    async close() {
      await supervisor.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
