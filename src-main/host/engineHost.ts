// The engine host: the one process that owns a profile's database. It opens
// the engine, runs every call of the operation table, the outbox and the
// background sync, and speaks the protocol of protocol.ts over a HostPort —
// Electron's utilityProcess in the desktop app, a worker thread or a forked
// Node process in tests. The Electron main process never opens the database.
import { forwardChanges } from './changeEvents';
import { randomUUID } from 'node:crypto';
import { copyFileSync, rmSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { ApiError, Code } from '../../src-shared/errors';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from '../auth/identity';
import type { Caller } from '../auth/caller';
import { isReplica, openEngine, type RequestContext } from '../engine';
import { seedDemoData } from '../seed/seedDemoData';
import { invoke } from '../services/invoke';
import { BackgroundSync } from '../sync/backgroundSync';
import { syncReplica } from '../sync/assembly/syncReplica';
import type { ReplicaEngine } from '../sync/replica';
import type { SecretStore } from '../sync/secretStore';
import { dispatch, errorResult, failure, tempUploadPath, type DispatchOptions } from './dispatch';
import { describeOpenFailure } from './openFailure';
import type { HostPort } from './parentPort';
import {
  isLongOperation,
  isToHost,
  toReply,
  type CallResult,
  type FromHost,
  type HostInit,
  type LogLevel,
  type SecretAction,
  type ToHost,
} from './protocol';

export interface EngineHostOptions {
  /** Ends the process (after `shutdown`, or when the database cannot be opened). */
  readonly exit: (code: number) => void;
}

/** Describes an error for the log: its stack when it has one (logs stay in main; callers only ever see the error body). */
export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}

/** Runs the engine host on `port` until `shutdown` (or until the parent is gone). */
export function runEngineHost(port: HostPort, options: EngineHostOptions): void {
  let engine: ReplicaEngine | undefined;
  let caller: Caller | undefined;
  let backgroundSync: BackgroundSync | undefined;
  let stopChanges: (() => void) | undefined;
  let shuttingDown: Promise<void> | undefined;
  let progressIntervalMs = 1_000;

  const post = (message: FromHost) => port.postMessage(message);
  const log = (level: LogLevel, message: string) => post({ kind: 'log', level, message });

  // Remote API keys stay in the parent (safeStorage in the desktop app): the host asks for one when it needs it.
  const secretRequests = new Map<number, { resolve: (value: string | undefined) => void; reject: (error: Error) => void }>();
  let nextSecretId = 1;
  const askSecret = (action: SecretAction, name: string, value?: string) =>
    new Promise<string | undefined>((resolve, reject) => {
      const id = nextSecretId++;
      secretRequests.set(id, { resolve, reject });
      post({ kind: 'secret', id, action, name, ...(value === undefined ? {} : { value }) });
    });
  const secrets: SecretStore = {
    get: (name) => askSecret('get', name),
    set: async (name, value) => void (await askSecret('set', name, value)),
    delete: async (name) => void (await askSecret('delete', name)),
  };

  const context = (): RequestContext => {
    if (!engine || !caller) throw new ApiError(Code.UNAVAILABLE, 'the profile database is not open');
    return { engine, db: engine.db, caller };
  };
  const dispatchOptions: DispatchOptions = {
    context,
    onInternalError: (operation, error) => log('error', `internal error in ${operation}: ${describeError(error)}`),
  };

  function open(init: HostInit): void {
    if (engine) return log('warn', 'init received twice; the profile is already open');
    if (init.progressIntervalMs) progressIntervalMs = init.progressIntervalMs;
    try {
      // As `outpost serve` does: the engine assembled with sync (its keys asked of the parent).
      const opened = openEngine(init.dataDir, { holder: { command: 'desktop' }, replica: syncReplica({ secrets }) });
      const { userId } = ensureMember(opened.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME);
      // First start: a living demo dataset instead of an empty screen.
      // Never into a replica: its records would bypass the outbox and never reach the remote.
      if (init.seedDemoData && !isReplica(opened.db) && !opened.db.get('SELECT 1 FROM annotations LIMIT 1')) seedDemoData(opened.db);
      const local = loadCaller(opened.db, userId);
      if (!local) throw new Error(`local user ${DEFAULT_USER_NAME} could not be loaded`);
      engine = opened;
      // The desktop's user owns the data directory (links, unlinks and syncs the remote; writes on a replica).
      caller = { ...local, owner: true };
    } catch (error) {
      log('error', `could not open the profile in ${init.dataDir}: ${describeError(error)}`);
      post({ kind: 'init-failed', message: describeOpenFailure(init.dataDir, error) });
      options.exit(1);
      return;
    }
    post({ kind: 'ready' });
    // What changed (the window's writes, sync pulls, imports) goes to the window, which refreshes its views.
    stopChanges = forwardChanges(engine.db, (event) => post({ kind: 'event', event }));
    if (init.backgroundSync) {
      // Runs while a remote is configured (now or later, from the Sync view); status and progress go to the parent.
      backgroundSync = new BackgroundSync({ engine, publishEvent: (event) => post({ kind: 'event', event }) });
      backgroundSync.start().catch((error: unknown) => log('error', `background sync could not start: ${describeError(error)}`));
    }
  }

  async function importFile(path: string): Promise<CallResult> {
    const operation = 'ImportTestReport';
    let staged: string | undefined;
    try {
      const ctx = context();
      // The path comes from the parent's own open dialog, never from the renderer. The upload's
      // store moves its temp file into place, so the user's file is copied first.
      staged = tempUploadPath(ctx);
      try {
        copyFileSync(path, staged);
      } catch (error) {
        throw ApiError.invalid(
          'path',
          `cannot read ${basename(path)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      }
      const file = { path: staged, fileName: basename(path), mimeType: 'application/xml', encoding: '', size: statSync(staged).size };
      const upload = (await invoke(ctx, 'UploadRemoteFile', { entityId: randomUUID(), entityType: 'test_reports', file })) as {
        remoteFile: { remoteFileId: string };
      };
      return { ok: true, data: await invoke(ctx, operation, { remoteFileId: upload.remoteFile.remoteFileId }) };
    } catch (e) {
      return errorResult(operation, e, dispatchOptions);
    } finally {
      if (staged) rmSync(staged, { force: true });
    }
  }

  function shutdown(): Promise<void> {
    shuttingDown ??= (async () => {
      // Stop sync first (a run in progress is aborted; committed work stays), then close the database.
      stopChanges?.();
      await backgroundSync?.stop().catch((error: unknown) => log('error', `stopping sync failed: ${describeError(error)}`));
      engine?.close();
      engine = undefined;
      for (const pending of secretRequests.values()) pending.reject(new Error('the engine host is shutting down'));
      secretRequests.clear();
      post({ kind: 'closed' });
      options.exit(0);
    })();
    return shuttingDown;
  }

  /** Sends the call's result; a long one reports progress meanwhile, each time the event loop comes round to it. */
  function answer(id: number, result: Promise<CallResult>, long = false): void {
    const progress = long ? setInterval(() => post({ kind: 'progress', id }), progressIntervalMs) : undefined;
    void result.then((r) => {
      clearInterval(progress);
      post({ kind: 'result', id, result: toReply(r) });
    });
  }

  function handle(message: ToHost): void {
    switch (message.kind) {
      case 'init':
        return open(message.init);
      case 'call':
        if (shuttingDown)
          return post({ kind: 'result', id: message.id, result: failure(new ApiError(Code.UNAVAILABLE, 'the engine is shutting down')) });
        return answer(message.id, dispatch(dispatchOptions, message.operation, message.request), isLongOperation(message.operation));
      case 'import-file':
        if (shuttingDown)
          return post({ kind: 'result', id: message.id, result: failure(new ApiError(Code.UNAVAILABLE, 'the engine is shutting down')) });
        return answer(message.id, importFile(message.path), true);
      case 'ping':
        return post({ kind: 'pong', id: message.id });
      case 'secret-result': {
        const pending = secretRequests.get(message.id);
        if (!pending) return;
        secretRequests.delete(message.id);
        // A secret store that cannot work (no OS keyring) is something the user can act on, not an internal error.
        if (message.ok) pending.resolve(message.value);
        else pending.reject(ApiError.failedPrecondition(message.message));
        return;
      }
      case 'shutdown':
        void shutdown();
        return;
    }
  }

  port.onMessage((message) => {
    if (!isToHost(message)) return log('warn', 'dropped a message that is not part of the engine host protocol');
    handle(message);
  });
  port.onParentGone(() => void shutdown());
}
