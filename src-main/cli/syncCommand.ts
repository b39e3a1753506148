// `outpost sync`: one full sync of a data directory with its remote, printing
// progress and a summary. --remote/--token link the directory (the key is
// stored in the data directory with 0600 permissions); later runs reuse them.
import { type Command, Option } from 'commander';
import { LinkCheckFailure, linkCheckFailureOf, type PreLinkRecords } from '../../src-shared/api/sync';
import { ApiError } from '../../src-shared/errors';
import { currentHolder, DataDirBusyError } from '../db/dataDirLock';
import { refuseLinkingDemoProfile } from '../db/demoProfile';
import { defaultDataDir, openEngine } from '../engine';
import { invoke } from '../services/invoke';
import { syncReplica } from '../sync/assembly/syncReplica';
import { syncThroughServer } from '../sync/delegatedSync';
import { localCaller, storedIdentity } from '../sync/identity';
import { preLinkRecords } from '../sync/operations/preLink';
import { describeAdoption, describePreLink } from '../sync/preLinkNotice';
import type { ReplicaEngine } from '../sync/replica';
import type { AdoptionResult } from '../sync/resource';
import { checkLink } from '../sync/linkCheck';
import { adoptAsChosen } from '../sync/pendingAdoption';
import { loadProfile, normalizeUrl, REMOTE_URL_SETTING, saveProfile } from '../sync/profile';
import { runSync, type SyncSummary } from '../sync/runSync';
import { plainProgressView, terminalProgressView } from '../sync/syncProgressView';

function describe(summary: SyncSummary, url: string): string {
  const p = summary.progress;
  const pulled = Object.entries(p.pulled)
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${n} ${r}`)
    .join(', ');
  const lines = [
    `${summary.ok ? 'synced' : 'sync incomplete'} with ${url} in ${(summary.durationMs / 1000).toFixed(1)} s (${summary.requests} requests)`,
    `  pulled: ${pulled || 'nothing new'}`,
    `  pushed: ${p.pushed} of ${p.pendingAtStart} pending edits` +
      (p.failed ? `, ${p.failed} refused by the remote` : '') +
      (p.recovered ? `, ${p.recovered} found already applied after an unknown outcome` : '') +
      (p.retries ? `, ${p.retries} retries` : ''),
    `  waiting: ${summary.pending} edits; failed: ${summary.failedEntries}; open conflicts: ${summary.openConflicts}` +
      (p.conflicts ? ` (${p.conflicts} new)` : ''),
  ];
  if (summary.error) lines.push(`  error: ${summary.error}`);
  return lines.join('\n');
}

/** The summary (and what is left from before the first link, and what an adoption did) as text or JSON. */
function report(summary: SyncSummary, url: string, preLink: PreLinkRecords, adoption: AdoptionResult | undefined, json: boolean): string {
  if (json) return `${JSON.stringify({ ...summary, preLink, ...(adoption ? { adoption } : {}) })}\n`;
  return `${[describe(summary, url), ...(adoption ? describeAdoption(adoption) : []), ...describePreLink(preLink)].join('\n')}\n`;
}

export interface SyncCommandOptions {
  data?: string;
  remote?: string;
  token?: string;
  tokenStdin?: boolean;
  relink?: boolean;
  quiet?: boolean;
  json?: boolean;
  concurrency?: string;
  timeoutMs?: string;
  retryBaseMs?: string;
  retryAttempts?: string;
  createQuietMs?: string;
  /** `--adopt-local [organization]`: true without a value. */
  adoptLocal?: string | true;
}

/** `outpost sync` and its options (the remote key also from OUTPOST_REMOTE_TOKEN or stdin, never only argv). */
export function addSyncCommand(root: Command, data: () => Option, run: (work: () => Promise<number>) => void): void {
  root
    .command('sync')
    .description('one full sync of the data directory with its remote (handed to a running `outpost serve` of the directory)')
    .addOption(data())
    .option('--remote <url>', 'link the directory to this remote (the first time, or with --relink)')
    .addOption(
      new Option('--token <key>', 'the remote API key (visible to other users in `ps`: prefer the variable or --token-stdin)').env(
        'OUTPOST_REMOTE_TOKEN',
      ),
    )
    .option('--token-stdin', 'read the remote API key from standard input')
    .option('--relink', 'switch the directory to another remote')
    .option('--quiet', 'print only the summary')
    .option('--json', 'print the summary as JSON, nothing else')
    .option('--concurrency <n>', 'requests in flight while pushing')
    .option('--timeout-ms <n>', 'per-request timeout')
    .option('--retry-base-ms <n>', 'first retry delay')
    .option('--retry-attempts <n>', 'attempts per request')
    .option('--create-quiet-ms <n>', 'how long an unanswered create may still land on the remote')
    .option(
      '--adopt-local [organization]',
      'send the records made here before the first link to the remote organization (its id when the remote user has several) as ordinary offline creates, then sync',
    )
    .action((o: SyncCommandOptions) => run(() => syncCommand(o)));
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

export async function syncCommand(values: SyncCommandOptions): Promise<number> {
  // Numeric options: whole numbers, checked before anything is opened.
  const numbers = [
    ['concurrency', values.concurrency, 1],
    ['timeout-ms', values.timeoutMs, 1],
    ['retry-base-ms', values.retryBaseMs, 0],
    ['retry-attempts', values.retryAttempts, 1],
    ['create-quiet-ms', values.createQuietMs, 0],
  ] as const;
  for (const [name, v, min] of numbers) {
    if (v !== undefined && !(/^\d+$/.test(v) && Number(v) >= min)) {
      process.stderr.write(`outpost: --${name} must be a whole number >= ${min}, got '${v}'\n`);
      return 2;
    }
  }
  if (values.tokenStdin) {
    values = { ...values, token: await readStdin() };
    if (!values.token) {
      process.stderr.write('outpost: --token-stdin: standard input held no key\n');
      return 2;
    }
  }
  const dataDir = values.data ?? defaultDataDir();
  const say = values.quiet || values.json ? undefined : (line: string) => process.stdout.write(`${line}\n`);
  let engine: ReplicaEngine;
  try {
    engine = openEngine(dataDir, { holder: { command: 'sync' }, replica: syncReplica() });
  } catch (e) {
    if (!(e instanceof DataDirBusyError)) throw e;
    // The directory's owner is a running `outpost serve`: it does the sync (one process per directory).
    const holder = e.holder ?? currentHolder(dataDir);
    if (holder?.command !== 'serve') throw e;
    const result = await syncThroughServer(dataDir, holder, {
      remote: values.remote,
      token: values.token,
      relink: values.relink === true,
      progress: say,
      ...(values.adoptLocal !== undefined ? { adoptLocal: values.adoptLocal } : {}),
    });
    if (result.kind === 'refused') {
      process.stderr.write(`outpost: ${result.message}\n`);
      return result.authError ? 3 : 2;
    }
    const { summary } = result;
    process.stdout.write(report(summary, result.baseUrl, result.preLink, result.adoption, values.json === true));
    return summary.ok ? 0 : summary.authError ? 3 : 1;
  }
  try {
    const { secrets, catalog } = engine.replica;
    if (values.remote) {
      if (values.relink) engine.db.run('DELETE FROM settings WHERE key = ?', [REMOTE_URL_SETTING]);
      const apiKey = values.token ?? (await loadProfile(engine.db, secrets))?.apiKey;
      if (!apiKey) {
        process.stderr.write('outpost: --token is required the first time a remote is used\n');
        return 2;
      }
      try {
        // A new link or a new key is checked before it is saved (linkCheck.ts): nothing is stored when it fails.
        refuseLinkingDemoProfile(engine.db); // before the check: a demo profile is never linked, wherever the remote is
        const stored = await loadProfile(engine.db, secrets);
        if (stored?.baseUrl !== normalizeUrl(values.remote) || stored.apiKey !== apiKey)
          await checkLink(engine.db, { baseUrl: normalizeUrl(values.remote), apiKey });
        await saveProfile(engine.db, secrets, { baseUrl: values.remote, apiKey });
      } catch (e) {
        if (e instanceof ApiError && linkCheckFailureOf(e.details)) {
          process.stderr.write(`outpost: ${e.message}\n`);
          return linkCheckFailureOf(e.details) === LinkCheckFailure.keyRefused ? 3 : 2;
        }
        process.stderr.write(`outpost: ${(e as Error).message} (use --relink to switch remotes)\n`);
        return 2;
      }
    }
    const profile = await loadProfile(engine.db, secrets);
    if (!profile) {
      process.stderr.write('outpost: no remote configured: pass --remote URL --token KEY\n');
      return 2;
    }
    const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
    // Bars on a terminal, plain lines elsewhere, nothing with --quiet or --json.
    const view = !say ? undefined : process.stdout.isTTY ? terminalProgressView(process.stdout) : plainProgressView(say);
    const sync = () =>
      runSync({
        db: engine.db,
        catalog,
        remote: { baseUrl: profile.baseUrl, apiKey: profile.apiKey, timeoutMs: num(values.timeoutMs) },
        concurrency: num(values.concurrency),
        createQuietMs: num(values.createQuietMs),
        retry: {
          ...(values.retryBaseMs ? { baseDelayMs: Number(values.retryBaseMs) } : {}),
          ...(values.retryAttempts ? { maxAttempts: Number(values.retryAttempts) } : {}),
        },
        afterFirstPull: (emit) => adoptAsChosen(engine, emit),
        onEvent: (e) => view?.event(e),
      });
    let adoption: AdoptionResult | undefined;
    if (values.adoptLocal !== undefined) {
      // The remote user and its organizations' reference data must be here first: a first sync brings them.
      if (!storedIdentity(engine.db)) {
        const first = await sync();
        if (!first.ok) {
          view?.stop();
          process.stdout.write(report(first, profile.baseUrl, preLinkRecords(catalog, engine.db), undefined, values.json === true));
          return first.authError ? 3 : 1;
        }
      }
      // Through invoke(), as the owner (acting as the remote user): the adopted creates are recorded like any offline write.
      try {
        const organizationId = values.adoptLocal === true ? undefined : values.adoptLocal;
        adoption = (await invoke({ engine, db: engine.db, caller: { ...localCaller(engine.db)!, owner: true } }, 'AdoptPreLinkRecords', {
          organizationId,
        })) as AdoptionResult;
      } catch (e) {
        view?.stop();
        if (!(e instanceof ApiError)) throw e;
        process.stderr.write(`outpost: --adopt-local: ${e.message}\n`);
        return 2;
      }
    }
    const summary = await sync();
    view?.stop();
    process.stdout.write(report(summary, profile.baseUrl, preLinkRecords(catalog, engine.db), adoption, values.json === true));
    return summary.ok ? 0 : summary.authError ? 3 : 1;
  } finally {
    engine.close();
  }
}
