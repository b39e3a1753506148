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
import {
  EngineHostSupervisor,
  type HostLauncher,
  type HostProcess,
  type HostState,
  type SupervisorOptions,
} from '../../src-main/host/supervisor';
import { createMemorySecretStore, type SecretStore } from '../../src-main/sync/secretStore';
import { BUILT_HOST, ensureMainBuilt } from './mainBundle';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TS_ENTRY = join(REPO_ROOT, 'src-main/host/main.ts');
const WORKER_ENTRY = join(REPO_ROOT, 'tests/support/engineHostEntry.mjs');
/** The built host, plus a message that blocks its event loop (blockableHostEntry.mjs). */
const BLOCKABLE_ENTRY = join(REPO_ROOT, 'tests/support/blockableHostEntry.mjs');
/** The built host bundle (electron-vite build): what the packaged app runs. */
export const BUILT_ENTRY = BUILT_HOST;

export type HostRunner = 'fork' | 'worker' | 'built-fork' | 'built-worker' | 'built-blockable';

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
    case 'built-blockable':
      return forkLauncher(BLOCKABLE_ENTRY, { cwd: REPO_ROOT });
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
  /** Every host process the supervisor started, the current one last. */
  readonly processes: HostProcess[];
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
  const processes: HostProcess[] = [];
  const runner = options.runner ?? 'fork';
  if (runner.startsWith('built-')) await ensureMainBuilt();
  const launch = launcherFor(runner);
  const supervisor = new EngineHostSupervisor({
    restartDelayMs: () => 0,
    ...options,
    launch: () => {
      const started = launch();
      processes.push(started);
      return started;
    },
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
    processes,
    async close() {
      await supervisor.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
