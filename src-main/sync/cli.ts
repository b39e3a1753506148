// `outpost sync`: one full sync of a data directory with its remote, printing
// progress and a summary. --remote/--token link the directory (the key is
// stored in the data directory with 0600 permissions); later runs reuse them.
import { type Command, Option } from 'commander';
import { currentHolder, DataDirBusyError } from '../db/dataDirLock';
import { defaultDataDir, openEngine, type Engine } from '../engine';
import { syncThroughServer } from './delegatedSync';
import { loadProfile, REMOTE_URL_SETTING, saveProfile } from './profile';
import { runSync, type SyncSummary } from './runSync';
import { dataDirSecretStore } from './secretStore';
import { plainProgressView, terminalProgressView } from './syncProgressView';

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
    `  waiting: ${summary.pending} edits; failed: ${summary.failedEntries}; open conflicts: ${summary.openConflicts}` + (p.conflicts ? ` (${p.conflicts} new)` : ''),
  ];
  if (summary.error) lines.push(`  error: ${summary.error}`);
  return lines.join('\n');
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
}

/** `outpost sync` and its options (the remote key also from OUTPOST_REMOTE_TOKEN or stdin, never only argv). */
export function addSyncCommand(root: Command, data: () => Option, run: (work: () => Promise<number>) => void): void {
  root
    .command('sync')
    .description('one full sync of the data directory with its remote (handed to a running `outpost serve` of the directory)')
    .addOption(data())
    .option('--remote <url>', 'link the directory to this remote (the first time, or with --relink)')
    .addOption(new Option('--token <key>', 'the remote API key (visible to other users in `ps`: prefer the variable or --token-stdin)').env('OUTPOST_REMOTE_TOKEN'))
    .option('--token-stdin', 'read the remote API key from standard input')
    .option('--relink', 'switch the directory to another remote')
    .option('--quiet', 'print only the summary')
    .option('--json', 'print the summary as JSON, nothing else')
    .option('--concurrency <n>', 'requests in flight while pushing')
    .option('--timeout-ms <n>', 'per-request timeout')
    .option('--retry-base-ms <n>', 'first retry delay')
    .option('--retry-attempts <n>', 'attempts per request')
    .option('--create-quiet-ms <n>', 'how long an unanswered create may still land on the remote')
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
  let engine: Engine;
  try {
    engine = openEngine(dataDir, { holder: { command: 'sync' } });
  } catch (e) {
    if (!(e instanceof DataDirBusyError)) throw e;
    // The directory's owner is a running `outpost serve`: it does the sync (one process per directory).
    const holder = e.holder ?? currentHolder(dataDir);
    if (holder?.command !== 'serve') throw e;
    const result = await syncThroughServer(dataDir, holder, { remote: values.remote, token: values.token, relink: values.relink === true, progress: say });
    if (result.kind === 'refused') {
      process.stderr.write(`outpost: ${result.message}\n`);
      return 2;
    }
    const { summary } = result;
    process.stdout.write(values.json ? `${JSON.stringify(summary)}\n` : `${describe(summary, result.baseUrl)}\n`);
    return summary.ok ? 0 : summary.authError ? 3 : 1;
  }
  try {
    const secrets = dataDirSecretStore(dataDir);
    if (values.remote) {
      if (values.relink) engine.db.run('DELETE FROM settings WHERE key = ?', [REMOTE_URL_SETTING]);
      const apiKey = values.token ?? (await loadProfile(engine.db, secrets))?.apiKey;
      if (!apiKey) {
        process.stderr.write('outpost: --token is required the first time a remote is used\n');
        return 2;
      }
      try {
        await saveProfile(engine.db, secrets, { baseUrl: values.remote, apiKey });
      } catch (e) {
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
    const summary = await runSync({
      db: engine.db,
      remote: { baseUrl: profile.baseUrl, apiKey: profile.apiKey, timeoutMs: num(values.timeoutMs) },
      concurrency: num(values.concurrency),
      createQuietMs: num(values.createQuietMs),
      retry: {
        ...(values.retryBaseMs ? { baseDelayMs: Number(values.retryBaseMs) } : {}),
        ...(values.retryAttempts ? { maxAttempts: Number(values.retryAttempts) } : {}),
      },
      onEvent: (e) => view?.event(e),
    });
    view?.stop();
    process.stdout.write(values.json ? `${JSON.stringify(summary)}\n` : `${describe(summary, profile.baseUrl)}\n`);
    return summary.ok ? 0 : summary.authError ? 3 : 1;
  } finally {
    engine.close();
  }
}
