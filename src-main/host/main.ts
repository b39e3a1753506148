// Entry point of the engine host process (out/main/engineHost.js): Electron
// starts it with utilityProcess.fork; tests and the bench start the same file
// with child_process.fork or as a worker thread.
import { isMainThread } from 'node:worker_threads';
import { describeError, runEngineHost } from './engineHost';
import { connectToParent } from './parentPort';
import type { FromHost } from './protocol';

const port = connectToParent();
/** Electron's utilityProcess gives its child a `process.parentPort`. */
const inUtilityProcess: boolean = 'parentPort' in process;
const log = (message: string) => port.postMessage({ kind: 'log', level: 'error', message } satisfies FromHost);

function exit(code: number): void {
  if (!isMainThread) return process.exit(code); // a worker thread ends alone
  process.exitCode = code;
  if (inUtilityProcess) {
    // A utility process: the parent port keeps it alive, and an immediate exit could drop the
    // last message ('closed', 'init-failed') on its way to main.
    setTimeout(() => process.exit(code), 100);
    return;
  }
  // Forked: let the last messages leave before the IPC channel closes; then nothing holds the process.
  process.disconnect?.();
  setTimeout(() => process.exit(code), 2_000).unref();
}

// A bug that escapes every handler leaves the engine in an unknown state: say so, and let the
// parent restart a fresh host (pending calls fail there with UNAVAILABLE, never silently).
process.on('uncaughtException', (error) => {
  log(`engine host: uncaught exception: ${describeError(error)}`);
  exit(70);
});
process.on('unhandledRejection', (reason) => log(`engine host: unhandled rejection: ${describeError(reason)}`));

runEngineHost(port, { exit });
