// The engine host's message protocol: what the main process (or a test)
// sends to the process that owns the database, and what comes back. One
// shape for every transport (Electron's utilityProcess parent port, a
// worker thread, a forked Node process): plain structured-clone data.
//
// Calls carry an id; each gets exactly one `result` whose body is what the
// HTTP API would answer (the response object, or the google.rpc.Status error
// body), sent as its JSON text (a BridgeReply: main forwards it to the
// renderer untouched, and only the renderer parses it). Pushed `event`s (sync status, progress) carry no id. Secrets never
// live in the host: it asks its parent for them (`secret`) when it needs one.
import type { BridgeReply } from '../../src-shared/bridge';
import type { StatusBody } from '../../src-shared/errors';

/** What a call resolves to. Errors travel as data: the google.rpc.Status body the HTTP API returns. */
export type CallResult = { ok: true; data: unknown } | { ok: false; error: StatusBody };

/**
 * A result as it travels: JSON text, except bytes (a download), which stay a
 * Uint8Array inside the result object (structured clone keeps them bytes).
 */
export function toReply(result: CallResult): BridgeReply {
  return result.ok && result.data instanceof Uint8Array ? result : JSON.stringify(result);
}

/** An event the host pushes (`type` says what it is, e.g. `sync-status`, `sync-progress`). */
export interface HostEvent {
  type: string;
  [key: string]: unknown;
}

export interface HostInit {
  /** The profile's data directory (the database, uploaded files, temp files). */
  readonly dataDir: string;
  /** Load the demo dataset into an empty database (the desktop app's first start). */
  readonly seedDemoData?: boolean;
  /** Run the background sync scheduler while a remote is configured (the desktop app does). */
  readonly backgroundSync?: boolean;
  /** How often a long operation's call reports progress (the supervisor sets it under its call deadline; default 1 s). */
  readonly progressIntervalMs?: number;
}

/**
 * Operations that may run longer than a call's deadline: the host reports their progress, which keeps their
 * deadline off while it arrives. Each yields to the event loop as it goes (the import copies in short
 * transactions), so a progress report means the work is still moving.
 */
const LONG_OPERATIONS: ReadonlySet<string> = new Set([
  'ImportTestReport',
  'UploadRemoteFile',
  'UploadArtifact',
  'CreateArtifactVersion',
  'AdoptPreLinkRecords',
  'CreateTestMeasurements',
]);

export function isLongOperation(operation: string): boolean {
  return operation.startsWith('Batch') || LONG_OPERATIONS.has(operation);
}

export type SecretAction = 'get' | 'set' | 'delete';

/** Main (the host's parent) -> host. */
export type ToHost =
  | { kind: 'init'; init: HostInit }
  /** Runs one operation of the operation table (the renderer's invoke, forwarded). */
  | { kind: 'call'; id: number; operation: string; request: unknown }
  /** Imports an ATML file the user picked in main's own open dialog (File > Import test report…). */
  | { kind: 'import-file'; id: number; path: string }
  | { kind: 'ping'; id: number }
  | { kind: 'secret-result'; id: number; ok: true; value?: string }
  | { kind: 'secret-result'; id: number; ok: false; message: string }
  /** Stop sync, close the database, exit. */
  | { kind: 'shutdown' };

export type LogLevel = 'info' | 'warn' | 'error';

/** Host -> main. */
export type FromHost =
  /** The database is open; calls are answered. */
  | { kind: 'ready' }
  /** The database could not be opened (corrupt, locked, a native module for another ABI): restarting will not help. */
  | { kind: 'init-failed'; message: string }
  | { kind: 'result'; id: number; result: BridgeReply }
  | { kind: 'pong'; id: number }
  /** A long call (import-file, or an isLongOperation) is still running: its deadline starts again. */
  | { kind: 'progress'; id: number }
  | { kind: 'event'; event: HostEvent }
  | { kind: 'secret'; id: number; action: SecretAction; name: string; value?: string }
  | { kind: 'log'; level: LogLevel; message: string }
  /** Answer to `shutdown`: the database is closed. */
  | { kind: 'closed' };

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** A message the host can act on (anything else is dropped: the parent is trusted, but a bug must not crash the host). */
export function isToHost(x: unknown): x is ToHost {
  if (!isObject(x) || typeof x.kind !== 'string') return false;
  switch (x.kind) {
    case 'init':
      return isObject(x.init) && typeof x.init.dataDir === 'string';
    case 'call':
      return typeof x.id === 'number' && typeof x.operation === 'string';
    case 'import-file':
      return typeof x.id === 'number' && typeof x.path === 'string';
    case 'ping':
      return typeof x.id === 'number';
    case 'secret-result':
      return typeof x.id === 'number' && typeof x.ok === 'boolean';
    case 'shutdown':
      return true;
    default:
      return false;
  }
}

export function isFromHost(x: unknown): x is FromHost {
  if (!isObject(x) || typeof x.kind !== 'string') return false;
  switch (x.kind) {
    case 'ready':
    case 'closed':
      return true;
    case 'init-failed':
      return typeof x.message === 'string';
    case 'result':
      return typeof x.id === 'number' && (typeof x.result === 'string' || (isObject(x.result) && typeof x.result.ok === 'boolean'));
    case 'pong':
    case 'progress':
      return typeof x.id === 'number';
    case 'event':
      return isObject(x.event) && typeof x.event.type === 'string';
    case 'secret':
      return typeof x.id === 'number' && (x.action === 'get' || x.action === 'set' || x.action === 'delete') && typeof x.name === 'string';
    case 'log':
      return (x.level === 'info' || x.level === 'warn' || x.level === 'error') && typeof x.message === 'string';
    default:
      return false;
  }
}
