// One full sync run: identity, pull (reference data, annotations, logs), push
// the outbox, pull again (the remote's side effects of our pushes: history
// logs, modified dates). Pulling before pushing is what detects conflicts:
// remote changes are merged field by field against the base of every record
// with pending local edits before those edits are sent.
import { httpStatusFromCode } from '../../src-shared/errors';
import type { Db } from '../db/database';
import { readStoredStatus, writeStoredStatus } from './status';
import { createApplier, emptyApplyStats } from './apply';
import { restoreIndexes } from '../db/bulkLoad';
import { adoptIdentity } from './identity';
import { acquireSyncLock } from './lock';
import { countOpenConflicts } from './conflicts';
import { countFailed, countOpen, openTargetResources } from './outbox';
import type { ResourceCatalog } from './catalog';
import { runPuller, callWithRetry, type Puller } from './pull';
import { refetchNoted } from './refetch';
import { push } from './push';
import { Remote, type RemoteOptions } from './remote';
import { PushWindow } from './pushWindow';
import { AuthError, classify, DEFAULT_RETRY, type RetryPolicy } from './retry';
import { emptyProgress, type SyncEvent, type SyncProgress, type SyncSession } from './session';
import type { RemoteFeatures } from './spec';
import { typedCall } from './wireTypes';

export interface SyncOptions {
  readonly db: Db;
  /** The replicated resources (sync/resources/index.ts; an engine's replica carries it). */
  readonly catalog: ResourceCatalog;
  readonly remote: RemoteOptions;
  readonly retry?: Partial<RetryPolicy>;
  /** Most pushes of entries on unrelated records on their way at once (default 64; fewer while the remote answers 429/503, pushWindow.ts). */
  readonly concurrency?: number;
  /** List page size (default 1000, the API maximum). */
  readonly pageSize?: number;
  /** Overlap window re-read by incremental pulls (default 30 s). */
  readonly overlapMs?: number;
  /** How often annotation logs, test steps and measurements deleted on the remote are looked for by listing them all (default 6 h). */
  readonly reconcileEveryMs?: number;
  /**
   * A create whose outcome is unknown is looked up only this long after it last left (default: the request
   * timeout, 30 s): a request still travelling (slow proxy, written just before a crash) cannot land after the lookup.
   */
  readonly createQuietMs?: number;
  /** A push running this long (ms) pauses to read again the records it has edits of, and so on (default 10 s; push.ts PushRereads). */
  readonly pushRereadEveryMs?: number;
  /** Pull the reference data (users, tags, assets, runs, channels) too (default true). */
  readonly reference?: boolean;
  /**
   * Runs what the link left for its first sync (pendingAdoption.ts adoptAsChosen: the records made before it, when
   * the user chose to send them): after the first pull, which brings the remote user and its reference data, and
   * before the push, which sends what it queued. The hosts and `outpost sync` pass it.
   */
  readonly afterFirstPull?: (emit: (e: SyncEvent) => void) => Promise<void>;
  readonly signal?: AbortSignal;
  readonly onEvent?: (e: SyncEvent) => void;
}

export interface SyncSummary {
  readonly ok: boolean;
  /** 401/403 from the remote: sync stops until the credentials change. */
  readonly authError: boolean;
  readonly error?: string;
  readonly progress: SyncProgress;
  /** Open outbox entries after the run (0 when everything reached the remote). */
  readonly pending: number;
  readonly failedEntries: number;
  readonly openConflicts: number;
  readonly durationMs: number;
  readonly requests: number;
}

function runSummary(p: SyncProgress, durationMs: number, requests: number) {
  return {
    pulled: Object.entries(p.pulled).map(([resource, rows]) => ({ resource, rows })),
    pendingAtStart: p.pendingAtStart,
    pushed: p.pushed,
    failed: p.failed,
    retries: p.retries,
    recovered: p.recovered,
    conflicts: p.conflicts,
    durationMs,
    requests,
  };
}

/** Push requests on their way at once unless the caller says otherwise (measured in bench/sync.ts: 16 -> 64 took a 10k-edit push from ~7 s to ~5 s on loopback: both sides commit in larger groups). */
export const DEFAULT_PUSH_CONCURRENCY = 64;

/**
 * How often a long push reads those lists again (push.ts PushRereads), and how far back those reads look. A read
 * lists every record we pushed since the previous one (the API cannot leave out our own writes): ~0.5 s per 3,500
 * pushed annotations here (bench push, read every 1.5 s: 10k edits in 6.5-6.9 s instead of 4.9-5.0 s), partly
 * repaid by the pull after the push, which then starts later. A push shorter than this reads nothing more.
 */
const PUSH_REREAD_EVERY_MS = 10_000;
const PUSH_REREAD_OVERLAP_MS = 2_000;

export async function runSync(options: SyncOptions): Promise<SyncSummary> {
  const { db, catalog } = options;
  const pushWindow = new PushWindow(options.concurrency ?? DEFAULT_PUSH_CONCURRENCY);
  const started = Date.now();
  const progress = emptyProgress();
  const emit = (e: SyncEvent) => options.onEvent?.(e);
  const lock = acquireSyncLock(db);
  const remote = new Remote(options.remote);
  let lastTick = 0;
  let error: string | undefined;
  let authError = false;
  /** The run failed because the remote did not answer (no network, refused, timed out, 5xx): offline, not an error. */
  let offline = false;
  // A run that starts while offline stays offline until it reaches the remote (no flipping to syncing and back).
  const wasOffline = readStoredStatus(db).state === 'offline';
  writeStoredStatus(db, { state: wasOffline ? 'offline' : 'syncing', phase: 'connecting', lastSyncStarted: started * 1000 });
  const setPhase = (phase: SyncProgress['phase']) => {
    progress.phase = phase;
    writeStoredStatus(db, { phase, state: 'syncing' }); // past connecting: the remote answered
    emit({ type: 'phase', phase });
  };
  try {
    progress.pendingAtStart = countOpen(db);
    restoreIndexes(db); // an initial pull interrupted by a crash left its deferred indexes to rebuild
    const retry = { ...DEFAULT_RETRY, ...options.retry };
    const features: RemoteFeatures = { celFilter: new Map(), unsupported: new Map() };
    const stats = emptyApplyStats();
    // Identity first (with retries): everything else is stored under the remote's user and organization ids.
    const bootstrap = {
      db,
      remote,
      retry,
      signal: options.signal,
      progress,
      throwIfAborted: () => options.signal?.throwIfAborted(),
    } as unknown as SyncSession;
    await callWithRetry(bootstrap, 'Ping', {});
    const identity = await adoptIdentity(
      db,
      typedCall((op, req) => callWithRetry(bootstrap, op, req)),
    );
    const session: SyncSession = {
      db,
      remote,
      identity,
      features,
      applier: createApplier(db, identity.userId, remote.clockOffset(), catalog, stats),
      retry,
      pushWindow,
      pageSize: options.pageSize ?? 1000,
      overlap: (options.overlapMs ?? 30_000) * 1000,
      reconcileEvery: (options.reconcileEveryMs ?? 6 * 3_600_000) * 1000,
      createQuietMs: options.createQuietMs ?? options.remote.timeoutMs ?? 30_000,
      signal: options.signal,
      progress,
      event: emit,
      tick: () => {
        progress.conflicts = stats.conflicts;
        const now = Date.now();
        if (now - lastTick < 200) return;
        lastTick = now;
        lock.renew();
        emit({ type: 'progress', progress: { ...progress, pulled: { ...progress.pulled } } });
      },
      throwIfAborted: () => options.signal?.throwIfAborted(),
    };
    const pullAll = async (list: readonly Puller[]) => {
      setPhase('pull');
      for (const p of list) await runPuller(session, p);
      await catalog.afterPull(session);
      // Records whose refused edit could not be undone here when it was refused (refetch.ts).
      await refetchNoted(
        session,
        catalog,
        typedCall((op, req) => callWithRetry(session, op, req)),
      );
    };
    await pullAll(catalog.pullers('beforePush', { reference: options.reference }));
    await options.afterFirstPull?.(emit);
    // The lists pulled after these took time, and the API has no conditional update: a remote edit of a record made
    // meanwhile would be overwritten by the push with no conflict recorded. Reading again, just before pushing, the
    // lists whose records have edits waiting (incremental: one request when nothing changed) merges it like any other.
    const rereadWaiting = async (s: SyncSession) => {
      const waiting = openTargetResources(db);
      for (const [resource, p] of catalog.rereads()) if (waiting.has(resource)) await runPuller(s, p);
    };
    await rereadWaiting(session);
    setPhase('push');
    // The same during a long push (PUSH_REREAD_EVERY_MS). Those reads are only for conflicts (the pull after the push
    // still reads with the full overlap), so their overlap is short: each lists what we pushed since the one before, and little more.
    // (A copy of the session with that overlap: a pull only reads the session's settings and shares its progress and events.)
    const duringPush = { ...session, overlap: Math.min(session.overlap, PUSH_REREAD_OVERLAP_MS * 1000) };
    const pushed = await push(session, catalog, {
      everyMs: options.pushRereadEveryMs ?? PUSH_REREAD_EVERY_MS,
      reread: () => rereadWaiting(duringPush),
    });
    if (pushed.deferred) offline = true;
    if (pushed.deferred)
      error = `the remote is unreachable or failing (${session.lastTransient ?? 'retries exhausted'}); ${countOpen(db)} edits wait for the next sync`;
    // (Each resource says which of its lists are worth reading again now: ReplicatedResource.pullAfterPush.)
    await pullAll(catalog.pullers('afterPush'));
    progress.conflicts = stats.conflicts;
    setPhase('done');
  } catch (e) {
    const failure = e instanceof AuthError ? { kind: 'auth' as const, code: e.code, message: e.message } : classify(e);
    if (failure.kind === 'auth') {
      authError = true;
      error = `the remote refused the API key (${httpStatusFromCode(failure.code)}): ${failure.message}; sync is stopped until the key is replaced`;
    } else {
      offline = failure.kind === 'transient';
      error = (e as Error)?.message ?? String(e);
    }
  } finally {
    const finished = Date.now();
    const ok = error === undefined;
    writeStoredStatus(db, {
      state: authError ? 'auth_error' : ok ? 'idle' : offline ? 'offline' : 'error',
      phase: '',
      lastSyncFinished: finished * 1000,
      lastSuccess: ok ? finished * 1000 : readStoredStatus(db).lastSuccess,
      lastError: error ?? '',
      lastRun: runSummary(progress, finished - started, remote.requests),
    });
    lock.release();
    remote.close();
  }
  return {
    ok: error === undefined,
    authError,
    error,
    progress,
    pending: countOpen(db),
    failedEntries: countFailed(db),
    openConflicts: countOpenConflicts(db),
    durationMs: Date.now() - started,
    requests: remote.requests,
  };
}
