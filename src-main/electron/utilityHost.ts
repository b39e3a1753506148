// Starting the engine host in the desktop app: an Electron utilityProcess
// (a Node child process Chromium manages, sandbox-free so it can load
// better-sqlite3) running out/main/engineHost.js. The host talks to us over
// its `process.parentPort` (host/parentPort.ts), so no MessageChannelMain is
// needed; messages are structured clones (upload bytes stay bytes).
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { utilityProcess, type UtilityProcess } from 'electron';
import type { HostLauncher, HostProcess } from '../host/supervisor';

/** The part of `utilityProcess.fork` the launcher uses (the test's stand-in forks a Node process). */
export type UtilityFork = (
  modulePath: string,
  args: string[],
  options: { serviceName: string; stdio: 'pipe'; env?: NodeJS.ProcessEnv },
) => UtilityProcess;

export function utilityHostLauncher(
  entry: string,
  env: NodeJS.ProcessEnv | undefined,
  fork: UtilityFork = (modulePath, args, options) => utilityProcess.fork(modulePath, args, options),
): HostLauncher {
  return (): HostProcess => {
    const child = fork(entry, [], { serviceName: 'Outpost engine', stdio: 'pipe', ...(env ? { env } : {}) });
    const outputListeners: ((line: string) => void)[] = [];
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) createInterface({ input: stream as Readable }).on('line', (line) => outputListeners.forEach((l) => l(line)));
    }
    return {
      postMessage: (message) => child.postMessage(message),
      onMessage: (listener) => void child.on('message', listener),
      onExit: (listener) => void child.once('exit', (code) => listener(code)),
      onOutput: (listener) => void outputListeners.push(listener),
      kill: () => void child.kill(),
      get pid() {
        return child.pid;
      },
    };
  };
}
