// `outpost sync` on a data directory that a running `outpost serve` holds: the
// server does the sync (one process per directory: db/dataDirLock.ts), asked
// through its own API with the owner's session key it keeps in the directory's
// 0600 secret file. Configures the remote if asked, runs a sync now (also under
// `serve --no-sync`, which only turns background runs off), follows its phases
// and prints the same summary and exit code as a sync run here.
import { keptOwnerSessionKey } from '../auth/apiKeys';
import type { HolderInfo } from '../db/dataDirLock';
import { describeHolder } from '../db/dataDirLock';
import { LinkCheckFailure, linkCheckFailureOf, type PreLinkRecords, type SyncStatus } from '../../src-shared/api/sync';
import type { AdoptionResult } from './resource';
import { createClient, httpTransport } from '../../src-shared/client';
import { ApiError } from '../../src-shared/errors';
import type { SyncSummary } from './runSync';
import { dataDirSecretStore } from './secretStore';

export interface DelegatedSyncOptions {
  readonly remote?: string;
  readonly token?: string;
  readonly relink: boolean;
  /** Prints a progress line (undefined: print nothing). */
  readonly progress?: (line: string) => void;
  /** Adopt the records made before the first link first (true: into the remote user's only organization; else that organization's id). */
  readonly adoptLocal?: true | string;
  /** How often the server's status is read while the run goes on. */
  readonly pollMs?: number;
}

export type DelegatedSyncResult =
  | { kind: 'done'; summary: SyncSummary; baseUrl: string; preLink: PreLinkRecords; adoption?: AdoptionResult }
  /** `authError`: the remote refused the key (the link check: nothing was stored). */
  | { kind: 'refused'; message: string; authError?: boolean };

/** The run's summary as the server recorded it, in the shape a run here returns. */
function summaryOf(status: SyncStatus): SyncSummary {
  const run = status.lastRun;
  const ok = status.state === 'idle' && !status.lastError;
  return {
    ok,
    authError: status.state === 'auth_error',
    ...(status.lastError ? { error: status.lastError } : {}),
    progress: {
      phase: 'done',
      pulled: Object.fromEntries((run?.pulled ?? []).map((p) => [p.resource, p.rows])),
      pendingAtStart: run?.pendingAtStart ?? 0,
      pushed: run?.pushed ?? 0,
      failed: run?.failed ?? 0,
      retries: run?.retries ?? 0,
      recovered: run?.recovered ?? 0,
      conflicts: run?.conflicts ?? 0,
    },
    pending: status.pendingCount,
    failedEntries: status.failedCount,
    openConflicts: status.openConflictCount,
    durationMs: run?.durationMs ?? 0,
    requests: run?.requests ?? 0,
  };
}

export async function syncThroughServer(dataDir: string, holder: HolderInfo, options: DelegatedSyncOptions): Promise<DelegatedSyncResult> {
  const who = describeHolder(holder);
  const key = await keptOwnerSessionKey(dataDirSecretStore(dataDir));
  if (!holder.url || !key)
    return { kind: 'refused', message: `${dataDir} is in use by ${who}, which cannot take a sync request; stop it or use another --data` };
  const client = createClient(httpTransport({ baseUrl: holder.url, apiKey: key }));
  const say = options.progress ?? (() => undefined);
  say(`${dataDir} is in use by ${who}: the sync runs there`);
  try {
    if (options.remote) {
      if (options.relink) await client.DeleteSyncRemote({});
      await client.ConfigureSyncRemote({ baseUrl: options.remote, ...(options.token ? { apiKey: options.token } : {}) });
    }
    const { remote } = await client.GetSyncRemote({});
    if (!remote) return { kind: 'refused', message: 'no remote configured: pass --remote URL --token KEY' };
    // A run now, followed until it ends (the server records its summary in the sync status).
    const runAndWait = async (): Promise<SyncStatus | string> => {
      const before = await client.GetSyncStatus({});
      await client.SyncNow({});
      let phase = '';
      const askedAt = Date.now();
      for (;;) {
        const status = await client.GetSyncStatus({});
        // A run starts within moments of SyncNow; a server that shows none for this long started none.
        if (status.state !== 'syncing' && status.lastSyncStartedDate === before.lastSyncStartedDate && Date.now() - askedAt > 30_000)
          return `${who} did not start a sync run`;
        const finished =
          status.state !== 'syncing' && status.lastSyncFinishedDate !== null && status.lastSyncFinishedDate !== before.lastSyncFinishedDate;
        if (status.phase && status.phase !== phase && status.phase !== 'done') say(`${status.phase}...`);
        phase = status.phase || phase;
        if (finished) return status;
        await new Promise((r) => setTimeout(r, options.pollMs ?? 200));
      }
    };
    let adoption: AdoptionResult | undefined;
    if (options.adoptLocal !== undefined) {
      // The remote user (and its organizations' reference data) must be known first: a first sync reads them.
      if (!(await client.GetPreLinkRecords({})).identityKnown) {
        const first = await runAndWait();
        if (typeof first === 'string') return { kind: 'refused', message: first };
        if (first.state !== 'idle' || first.lastError)
          return { kind: 'done', summary: summaryOf(first), baseUrl: remote.baseUrl, preLink: await client.GetPreLinkRecords({}) };
      }
      adoption = await client.AdoptPreLinkRecords(options.adoptLocal === true ? {} : { organizationId: options.adoptLocal });
    }
    const status = await runAndWait();
    if (typeof status === 'string') return { kind: 'refused', message: status };
    return {
      kind: 'done',
      summary: summaryOf(status),
      baseUrl: remote.baseUrl,
      preLink: await client.GetPreLinkRecords({}),
      ...(adoption ? { adoption } : {}),
    };
  } catch (e) {
    if (e instanceof ApiError && linkCheckFailureOf(e.details)) {
      return { kind: 'refused', message: e.message, authError: linkCheckFailureOf(e.details) === LinkCheckFailure.keyRefused };
    }
    if (e instanceof ApiError) return { kind: 'refused', message: `${who} refused the sync: ${e.message}` };
    return { kind: 'refused', message: `${who} did not answer at ${holder.url}: ${(e as Error).message}` };
  }
}
