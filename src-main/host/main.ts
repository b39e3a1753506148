// Entry point of the engine host process (out/main/engineHost.js): Electron
// starts it with utilityProcess.fork; tests and the bench start the same file
// with child_process.fork or as a worker thread.
import { isMainThread } from 'node:worker_threads';
import { describeError, runEngineHost } from './engineHost';
import { connectToParent } from './parentPort';
import type { FromHost } from './protocol';

const port = connectToParent();
const log = (message: string) => port.postMessage({ kind: 'log', level: 'error', message } satisfies FromHost);

function exit(code: number): void {
  const electronUtility = 'parentPort' in process;
  if (isMainThread && process.send && !electronUtility) {
    // Forked: let the last messages ('closed', 'init-failed') leave before the IPC channel closes.
    process.exitCode = code;
    process.disconnect?.();
    setTimeout(() => process.exit(code), 2_000).unref();
    return;
  }
  process.exit(code); // a worker thread ends alone; a utility process ends
}

// A bug that escapes every handler leaves the engine in an unknown state: say so, and let the
// parent restart a fresh host (pending calls fail there with UNAVAILABLE, never silently).
process.on('uncaughtException', (error) => {
  log(`engine host: uncaught exception: ${describeError(error)}`);
  process.exit(70);
});
process.on('unhandledRejection', (reason) => log(`engine host: unhandled rejection: ${describeError(reason)}`));

runEngineHost(port, { exit });
