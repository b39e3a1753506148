// `outpost <command>`: serve | keys create | seed | sync. Prints results on stdout,
// problems on stderr, and returns an exit code.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createApiKey } from './auth/apiKeys';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from './auth/identity';
import { defaultDataDir, openEngine } from './engine';
import { createApiServer, listen } from './http/server';
import { seedDemoData } from './seed/seedDemoData';
import { BackgroundSync } from './sync/backgroundSync';
import { SYNC_USAGE, syncCommand } from './sync/cli';
import { attachReplica } from './sync/replica';
import { dataDirSecretStore } from './sync/secretStore';

const USAGE = `usage:
  outpost serve [--data DIR] [--port N] [--host 127.0.0.1] [--seed-if-empty] [--static DIR] [--no-sync]
      background sync runs while the data directory has a remote (configured in the
      app's Sync view or by \`outpost sync --remote\`); --no-sync turns it off
  outpost keys create [--data DIR] [--user EMAIL] [--org NAME]
  outpost seed [--data DIR] [--annotations N]
${SYNC_USAGE}

DIR defaults to ${defaultDataDir()}`;

const here = dirname(fileURLToPath(import.meta.url));
const rendererBuild = resolve(here, '..', 'out', 'renderer');

function fail(message: string): number {
  process.stderr.write(`outpost: ${message}\n`);
  return 2;
}

async function serve(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      data: { type: 'string' },
      port: { type: 'string', default: '4280' },
      host: { type: 'string', default: '127.0.0.1' },
      static: { type: 'string' },
      'seed-if-empty': { type: 'boolean', default: false },
      'no-sync': { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return fail(`invalid --port '${values.port}'`);
  const engine = attachReplica(openEngine(values.data ?? defaultDataDir()));
  if (values['seed-if-empty'] && !engine.db.get('SELECT 1 FROM annotations LIMIT 1')) {
    const counts = seedDemoData(engine.db);
    process.stdout.write(`seeded demo data: ${counts.annotations} annotations, ${counts.assets} assets, ${counts.runs} runs\n`);
  }
  const staticDir = values.static ?? (existsSync(join(rendererBuild, 'index.html')) ? rendererBuild : undefined);
  const server = createApiServer(engine, { staticDir });
  const url = await listen(server, port, values.host);
  // A fresh key for this session's browser tab, passed in the URL fragment (never sent to the server in requests).
  const { token } = createApiKey(engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME, 'serve session');
  process.stdout.write(`Outpost serving ${engine.dataDir}\n  API: ${url}/api/v1\n`);
  process.stdout.write(staticDir ? `  App: ${url}/#key=${token}\n` : '  (renderer not built: run `npm run build` to serve the app)\n');
  // Background sync with the data directory's remote (if any, or once one is configured through the API).
  const sync = values['no-sync'] ? undefined : new BackgroundSync({ engine, secrets: dataDirSecretStore(engine.dataDir) });
  await sync?.start();
  const remote = await engine.remoteProfile.read();
  process.stdout.write(sync ? `  Sync: ${remote ? `with ${remote.baseUrl} in the background` : 'no remote configured (add one in the Sync view)'}\n` : '  Sync: off (--no-sync)\n');
  const stop = () => void (sync?.stop() ?? Promise.resolve()).finally(() => server.close(() => (engine.close(), process.exit(0))));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await new Promise(() => {});
  return 0;
}

function keys(args: string[]): number {
  const [sub, ...rest] = args;
  if (sub !== 'create') return fail(`unknown keys command '${sub ?? ''}'\n${USAGE}`);
  const { values } = parseArgs({ args: rest, options: { data: { type: 'string' }, user: { type: 'string' }, org: { type: 'string' }, name: { type: 'string' } } });
  const engine = openEngine(values.data ?? defaultDataDir());
  try {
    const { token } = createApiKey(engine.db, values.user ?? DEFAULT_USER_NAME, values.org ?? DEFAULT_ORGANIZATION_NAME, values.name ?? '');
    process.stdout.write(`${token}\n`);
    return 0;
  } finally {
    engine.close();
  }
}

function seed(args: string[]): number {
  const { values } = parseArgs({ args, options: { data: { type: 'string' }, annotations: { type: 'string' } } });
  const engine = openEngine(values.data ?? defaultDataDir());
  try {
    const n = values.annotations === undefined ? undefined : Number(values.annotations);
    if (n !== undefined && (!Number.isInteger(n) || n < 0)) return fail(`invalid --annotations '${values.annotations}'`);
    const counts = seedDemoData(engine.db, { annotations: n });
    process.stdout.write(`${JSON.stringify(counts)}\n`);
    return 0;
  } finally {
    engine.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve(rest);
      case 'keys':
        return keys(rest);
      case 'seed':
        return seed(rest);
      case 'sync':
        return await syncCommand(rest);
      case undefined:
      case 'help':
      case '--help':
        process.stdout.write(`${USAGE}\n`);
        return command ? 0 : 2;
      default:
        return fail(`unknown command '${command}'\n${USAGE}`);
    }
  } catch (e) {
    return fail((e as Error).message);
  }
}
