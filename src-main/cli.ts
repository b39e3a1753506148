// `outpost <command>`: serve | keys create|list|revoke | seed | sync. Prints results
// on stdout, problems on stderr, and returns an exit code (2: bad usage or a data
// directory another Outpost process holds).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { addAttributeCommands } from './cli/attributesCommand';
import { createApiKey, listApiKeys, ownerSessionKey, revokeApiKey } from './auth/apiKeys';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from './auth/identity';
import { demoDataDir } from './db/dataDir';
import { defaultDataDir, isReplica, openEngine } from './engine';
import { behindTls } from './grpc/onePort';
import { createApiServer, listen } from './http/server';
import { seedDemoData } from './seed/seedDemoData';
import { BackgroundSync } from './sync/backgroundSync';
import { addSyncCommand } from './cli/syncCommand';
import { syncReplica } from './sync/assembly/syncReplica';
import { dataDirSecretStore } from './sync/secretStore';

const here = dirname(fileURLToPath(import.meta.url));
/** The built renderer: beside the built CLI (out/main/cli.js -> out/renderer), or under out/ from the sources. */
const rendererBuild = [resolve(here, '..', 'renderer'), resolve(here, '..', 'out', 'renderer')].find((dir) =>
  existsSync(join(dir, 'index.html')),
);

function fail(message: string): number {
  process.stderr.write(`outpost: ${message}\n`);
  return 2;
}

interface ServeOptions {
  data?: string;
  port: string;
  host: string;
  static?: string;
  seedIfEmpty?: boolean;
  demo?: boolean;
  sync: boolean;
  allowedHost: string[];
  tlsCert?: string;
  tlsKey?: string;
}

/** The PEM files of --tls-cert and --tls-key, both or neither; a message when they cannot be used. */
function tlsCredentials(values: ServeOptions): { cert: Buffer; key: Buffer } | string | undefined {
  if (!values.tlsCert && !values.tlsKey) return undefined;
  if (!values.tlsCert || !values.tlsKey) return '--tls-cert and --tls-key go together (a PEM certificate and its private key)';
  try {
    return { cert: readFileSync(values.tlsCert), key: readFileSync(values.tlsKey) };
  } catch (e) {
    return `cannot read the TLS files: ${(e as Error).message}`;
  }
}

async function serve(values: ServeOptions): Promise<number> {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return fail(`invalid --port '${values.port}'`);
  const tls = tlsCredentials(values);
  if (typeof tls === 'string') return fail(tls);
  // The last resort: a fault that escaped its request is logged, and the server keeps serving everyone else.
  // (Each request's own errors are answered with the contract's error body before they get here.)
  process.on('unhandledRejection', (e) => console.error('outpost: unhandled rejection; serving on:', e));
  process.on('uncaughtException', (e) => console.error('outpost: uncaught exception; serving on:', e));
  // --demo: the demo profile (its own directory beside the real one unless --data names one), seeded when empty.
  const dataDir = values.data ?? (values.demo ? demoDataDir() : defaultDataDir());
  const engine = openEngine(dataDir, { holder: { command: 'serve' }, replica: syncReplica() });
  if ((values.seedIfEmpty || values.demo) && !isReplica(engine.db) && !engine.db.get('SELECT 1 FROM annotations LIMIT 1')) {
    const counts = seedDemoData(engine.db);
    process.stdout.write(`seeded demo data: ${counts.annotations} annotations, ${counts.assets} assets, ${counts.runs} runs\n`);
  }
  const staticDir = values.static ?? rendererBuild;
  const server = createApiServer(engine, { staticDir, allowedHosts: values.allowedHost });
  // One port for REST, gRPC, gRPC-Web and Connect, in the clear or (--tls-cert) behind TLS.
  let front;
  try {
    front = tls ? behindTls(server, tls) : server;
  } catch (e) {
    return fail(`cannot use the TLS certificate and key: ${(e as Error).message}`);
  }
  const listened = await listen(front, port, values.host);
  const url = tls ? listened.replace(/^http:/, 'https:') : listened;
  engine.lock.update({ url });
  // The owner's key for the browser tab (passed in the URL fragment, never sent in requests) and for an
  // `outpost sync` that hands its work to this server: kept in the data directory's 0600 secret file and
  // reused by the next start, not minted anew each time.
  const token = await ownerSessionKey(engine.db, dataDirSecretStore(engine.dataDir));
  process.stdout.write(`Outpost serving ${engine.dataDir}\n  API: ${url}/api/v1\n  gRPC, gRPC-Web, Connect: ${url}\n`);
  // The key also on its own line: a script (sift_py, sift_client, curl) needs it whether or not the app is served.
  process.stdout.write(`  API key: ${token}\n`);
  process.stdout.write(staticDir ? `  App: ${url}/#key=${token}\n` : '  (renderer not built: run `npm run build` to serve the app)\n');
  // Sync with the data directory's remote: in the background unless --no-sync, and on request (SyncNow, which
  // an `outpost sync` of this directory sends here) either way.
  const background = values.sync;
  const sync = new BackgroundSync({ engine, background });
  await sync.start();
  const remote = await engine.replica.remoteProfile.read();
  process.stdout.write(
    background
      ? `  Sync: ${remote ? `with ${remote.baseUrl} in the background` : 'no remote configured (add one in the Sync view)'}\n`
      : '  Sync: only on request (--no-sync: no background runs)\n',
  );
  const stop = () => void sync.stop().finally(() => front.close(() => (engine.close(), process.exit(0))));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await new Promise(() => {});
  return 0;
}

interface KeysCreateOptions {
  data?: string;
  user?: string;
  org?: string;
  name?: string;
  owner?: boolean;
}

function keysCreate(values: KeysCreateOptions): number {
  const engine = openEngine(values.data ?? defaultDataDir(), { holder: { command: 'keys' } });
  try {
    const { token } = createApiKey(
      engine.db,
      values.user ?? DEFAULT_USER_NAME,
      values.org ?? DEFAULT_ORGANIZATION_NAME,
      values.name ?? '',
      { owner: values.owner },
    );
    process.stdout.write(`${token}\n`);
    return 0;
  } finally {
    engine.close();
  }
}

const date = (micros: number | null) => (micros === null ? '' : new Date(micros / 1000).toISOString().replace(/\.\d+Z$/, 'Z'));

function keysList(values: { data?: string; json?: boolean }): number {
  const engine = openEngine(values.data ?? defaultDataDir(), { holder: { command: 'keys' } });
  try {
    const keys = listApiKeys(engine.db);
    if (values.json) process.stdout.write(`${JSON.stringify(keys)}\n`);
    else {
      for (const k of keys) {
        const state = k.revokedDate === null ? 'active' : `revoked ${date(k.revokedDate)}`;
        process.stdout.write(
          `${k.id}  ${k.userName}${k.owner ? ' (owner)' : ''}  ${k.name || '-'}  created ${date(k.createdDate)}  ${state}\n`,
        );
      }
    }
    return 0;
  } finally {
    engine.close();
  }
}

function keysRevoke(id: string, values: { data?: string }): number {
  const engine = openEngine(values.data ?? defaultDataDir(), { holder: { command: 'keys' } });
  try {
    const revoked = revokeApiKey(engine.db, id);
    if (!revoked) return fail(`no single key matches '${id}' (give a key id, or 4+ characters of one, from \`outpost keys list\`)`);
    process.stdout.write(`revoked ${revoked.id} (${revoked.userName}${revoked.name ? `, ${revoked.name}` : ''})\n`);
    return 0;
  } finally {
    engine.close();
  }
}

function seed(values: { data?: string; annotations?: string }): number {
  const n = values.annotations === undefined ? undefined : Number(values.annotations);
  if (n !== undefined && (!Number.isInteger(n) || n < 0)) return fail(`invalid --annotations '${values.annotations}'`);
  // The demo has its own directory: seeding makes a directory a demo profile, which can never be linked.
  const engine = openEngine(values.data ?? demoDataDir(), { holder: { command: 'seed' } });
  try {
    if (isReplica(engine.db))
      return fail(`${engine.dataDir} is a replica of its remote: demo data is only for a local profile (use another --data)`);
    const counts = seedDemoData(engine.db, { annotations: n });
    process.stdout.write(`${JSON.stringify(counts)}\n`);
    return 0;
  } finally {
    engine.close();
  }
}

/** The command line, described once: commander prints `--help` of every command and refuses unknown options. */
function program(run: (work: () => number | Promise<number>) => void): Command {
  const data = () => new Option('--data <dir>', `data directory (default: ${defaultDataDir()})`);
  // Set before the commands are added, which inherit them: errors come back to main() (exit code 2), not process.exit.
  const root = new Command('outpost')
    .description('Outpost: review telemetry annotations offline; the local engine of the platform API, and its sync')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text.startsWith('error: ') ? `outpost: ${text.slice(7)}` : text) })
    .showHelpAfterError('(`outpost --help` lists the commands, `outpost <command> --help` their options)');
  root
    .command('serve')
    .description('serve the API at /api/v1 and the app at / on loopback; syncs in the background while the data directory has a remote')
    .addOption(data())
    .option('--port <n>', 'port (0 = any free one)', '4280')
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option(
      '--allowed-host <name...>',
      'further Host names to answer (DNS rebinding guard: by default only the bound address and localhost)',
      [],
    )
    .option('--demo', `the demo profile: ${demoDataDir()} (or --data), with the demo dataset loaded when empty`)
    .option('--seed-if-empty', 'load the demo dataset into an empty database (making it a demo profile)')
    .option('--static <dir>', 'directory of the built renderer (default: out/renderer when built)')
    .option('--no-sync', 'no background sync runs (a sync on request, e.g. by `outpost sync`, still runs)')
    .option('--tls-cert <file>', 'serve over TLS (https, gRPC with TLS) with this PEM certificate (with --tls-key)')
    .option('--tls-key <file>', "the certificate's PEM private key")
    .action((o: ServeOptions) => run(() => serve(o)));
  const keys = root.command('keys').description('API keys of the data directory (stored hashed)');
  keys
    .command('create')
    .description('print a new API key')
    .addOption(data())
    .option('--user <email>', 'the user the key acts as', DEFAULT_USER_NAME)
    .option('--org <name>', 'the organization the user belongs to', DEFAULT_ORGANIZATION_NAME)
    .option('--name <text>', 'a note to recognise the key by')
    .option('--owner', "the data directory owner's key: links, unlinks and syncs the remote, writes on a replica")
    .action((o: KeysCreateOptions) => run(() => keysCreate(o)));
  keys
    .command('list')
    .description('list the keys (never the tokens: only their hashes are stored)')
    .addOption(data())
    .option('--json', 'one JSON array')
    .action((o: { data?: string; json?: boolean }) => run(() => keysList(o)));
  keys
    .command('revoke')
    .description('revoke a key: it answers 401 from the next request on')
    .argument('<id>', 'the key id (or 4+ of its first characters) from `outpost keys list`')
    .addOption(data())
    .action((id: string, o: { data?: string }) => run(() => keysRevoke(id, o)));
  root
    .command('seed')
    .description('load the demo dataset (a demo profile cannot be linked to a remote)')
    .addOption(new Option('--data <dir>', `data directory (default: the demo profile, ${demoDataDir()})`))
    .option('--annotations <n>', 'how many annotations')
    .action((o: { data?: string; annotations?: string }) => run(() => seed(o)));
  addSyncCommand(root, data, run);
  addAttributeCommands(root, data, run);
  return root;
}

export async function main(argv: string[]): Promise<number> {
  let work: (() => number | Promise<number>) | undefined;
  const cli = program((w) => (work = w));
  try {
    if (argv.length === 0) {
      process.stdout.write(cli.helpInformation());
      return 2;
    }
    await cli.parseAsync(argv, { from: 'user' });
  } catch (e) {
    // --help asked for: 0; anything else commander refused (unknown command or option, missing subcommand): 2.
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    return fail((e as Error).message);
  }
  if (!work) return 0; // `outpost keys` alone printed its help
  try {
    return await work();
  } catch (e) {
    return fail((e as Error).message);
  }
}
