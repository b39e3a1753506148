// Starting the engine host under plain Node: a forked process (a real process
// that can be killed, as a utilityProcess can) or a worker thread. Tests and
// the bench use these; the desktop app uses electron/utilityHost.ts.
import { fork } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { HostLauncher, HostProcess } from './supervisor';

export interface NodeLaunchOptions {
  /** Node flags, e.g. `['--import', 'tsx']` to run the TypeScript entry. */
  readonly execArgv?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

function linesOf(streams: (Readable | null | undefined)[], emit: (line: string) => void): void {
  for (const stream of streams) if (stream) createInterface({ input: stream }).on('line', emit);
}

/** Each launch forks `entry` with an IPC channel that keeps bytes as bytes (`serialization: 'advanced'`). */
export function forkLauncher(entry: string, options: NodeLaunchOptions = {}): HostLauncher {
  return (): HostProcess => {
    const child = fork(entry, [], {
      execArgv: [...(options.execArgv ?? [])],
      env: options.env ?? process.env,
      cwd: options.cwd,
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const outputListeners: ((line: string) => void)[] = [];
    linesOf([child.stdout, child.stderr], (line) => outputListeners.forEach((l) => l(line)));
    // A send racing the child's death fails here instead of throwing in the caller.
    child.on('error', () => {});
    return {
      postMessage: (message) => {
        if (child.connected) child.send(message, (error) => void error);
      },
      onMessage: (listener) => void child.on('message', listener),
      onExit: (listener) => void child.once('exit', (code) => listener(code)),
      onOutput: (listener) => void outputListeners.push(listener),
      kill: () => void child.kill('SIGKILL'),
      get pid() {
        return child.pid;
      },
    };
  };
}

/** Each launch starts `entry` as a worker thread (terminated rather than killed). */
export function workerLauncher(entry: string, options: NodeLaunchOptions = {}): HostLauncher {
  return (): HostProcess => {
    const worker = new Worker(entry, {
      execArgv: [...(options.execArgv ?? [])],
      env: options.env ?? process.env,
      stdout: true,
      stderr: true,
    });
    const outputListeners: ((line: string) => void)[] = [];
    linesOf([worker.stdout, worker.stderr], (line) => outputListeners.forEach((l) => l(line)));
    worker.on('error', (error) => outputListeners.forEach((l) => l(`worker error: ${error.message}`)));
    return {
      postMessage: (message) => worker.postMessage(message),
      onMessage: (listener) => void worker.on('message', listener),
      onExit: (listener) => void worker.once('exit', (code) => listener(code)),
      onOutput: (listener) => void outputListeners.push(listener),
      kill: () => void worker.terminate(),
      pid: undefined,
    };
  };
}
