// The host's side of its one channel: a small port interface, and the three
// ways a host process is connected to its parent. The engine host is written
// against HostPort only, so the same code runs as Electron's utilityProcess
// (the desktop app), a worker thread, or a forked Node process (tests, bench).
import { parentPort as workerParentPort } from 'node:worker_threads';

/** Messages out, messages in. Messages are structured-clone data (Uint8Array included). */
export interface HostPort {
  postMessage(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called when the parent is gone (a forked host must not outlive it, holding the database). */
  onParentGone(listener: () => void): void;
}

/** Electron's `process.parentPort` in a utilityProcess (MessageEvent in, postMessage out). */
interface ElectronParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

function electronParentPort(): ElectronParentPort | undefined {
  return (process as NodeJS.Process & { parentPort?: ElectronParentPort }).parentPort;
}

/**
 * The port this process was started with: Electron's utilityProcess parent port,
 * a worker thread's parentPort, or a forked process's IPC channel (started with
 * `serialization: 'advanced'`, so bytes stay bytes).
 */
export function connectToParent(): HostPort {
  const electron = electronParentPort();
  if (electron) {
    return {
      postMessage: (message) => electron.postMessage(message),
      onMessage: (listener) => void electron.on('message', (event) => listener(event.data)),
      // Electron ends a utility process with the app; nothing to watch.
      onParentGone: () => {},
    };
  }
  const worker = workerParentPort;
  if (worker) {
    return {
      postMessage: (message) => worker.postMessage(message),
      onMessage: (listener) => void worker.on('message', listener),
      onParentGone: (listener) => void worker.on('close', listener),
    };
  }
  if (process.send) {
    return {
      postMessage: (message) => {
        // A parent that died between two messages: the 'disconnect' listener shuts down.
        if (process.connected) process.send!(message);
      },
      onMessage: (listener) => void process.on('message', listener),
      onParentGone: (listener) => void process.on('disconnect', listener),
    };
  }
  throw new Error('the engine host must be started by its parent (utilityProcess, worker thread or fork with an IPC channel)');
}
