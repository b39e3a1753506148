// `outpost sync`: one full sync of a data directory with its remote, printing
// progress and a summary. --remote/--token link the directory (the key is
// stored in the data directory with 0600 permissions); later runs reuse them.
import { parseArgs } from 'node:util';
import { currentHolder, DataDirBusyError } from '../db/dataDirLock';
import { defaultDataDir, openEngine, type Engine } from '../engine';
import { syncThroughServer } from './delegatedSync';
import { loadProfile, REMOTE_URL_SETTING, saveProfile } from './profile';
import { runSync, type SyncSummary } from './runSync';
import { dataDirSecretStore } from './secretStore';
import type { SyncEvent } from './session';

export const SYNC_USAGE = '  outpost sync [--data DIR] [--remote URL --token KEY] [--relink] [--quiet] [--json] [--concurrency N]';

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

function progressLine(e: SyncEvent): string | undefined {
  switch (e.type) {
    case 'phase':
      return e.phase === 'done' ? undefined : `${e.phase}...`;
    case 'pulled':
      return e.rows ? `  pulled ${e.rows} ${e.resource}` : undefined;
    case 'progress': {
      const p = e.progress;
      if (p.phase === 'push') return `  pushed ${p.pushed}/${p.pendingAtStart}`;
      const total = Object.values(p.pulled).reduce((a, b) => a + b, 0);
      return total ? `  pulled ${total} rows` : undefined;
    }
    case 'entry-failed':
      return `  refused #${e.seq} ${e.operation}: ${e.message}`;
    case 'warning':
      return `  warning: ${e.message}`;
  }
}

export async function syncCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      data: { type: 'string' },
      remote: { type: 'string' },
      token: { type: 'string' },
      relink: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'retry-base-ms': { type: 'string' },
      'retry-attempts': { type: 'string' },
      'create-quiet-ms': { type: 'string' },
    },
  });
  // Numeric options: whole numbers, checked before anything is opened.
  const numbers = { concurrency: 1, 'timeout-ms': 1, 'retry-base-ms': 0, 'retry-attempts': 1, 'create-quiet-ms': 0 } as const;
  for (const [name, min] of Object.entries(numbers)) {
    const v = values[name as keyof typeof numbers];
    if (v !== undefined && !(/^\d+$/.test(v) && Number(v) >= min)) {
      process.stderr.write(`outpost: --${name} must be a whole number >= ${min}, got '${v}'\n`);
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
    const result = await syncThroughServer(dataDir, holder, { remote: values.remote, token: values.token, relink: values.relink, progress: say });
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
    const summary = await runSync({
      db: engine.db,
      remote: { baseUrl: profile.baseUrl, apiKey: profile.apiKey, timeoutMs: num(values['timeout-ms']) },
      concurrency: num(values.concurrency),
      createQuietMs: num(values['create-quiet-ms']),
      retry: {
        ...(values['retry-base-ms'] ? { baseDelayMs: Number(values['retry-base-ms']) } : {}),
        ...(values['retry-attempts'] ? { maxAttempts: Number(values['retry-attempts']) } : {}),
      },
      onEvent: (e) => {
        if (values.quiet || values.json) return;
        const line = progressLine(e);
        if (line) process.stdout.write(`${line}\n`);
      },
    });
    process.stdout.write(values.json ? `${JSON.stringify(summary)}\n` : `${describe(summary, profile.baseUrl)}\n`);
    return summary.ok ? 0 : summary.authError ? 3 : 1;
  } finally {
    engine.close();
  }
}
