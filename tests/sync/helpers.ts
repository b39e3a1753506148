// Sync test kit: a remote (`outpost serve` engine over loopback), local
// replicas (their own engines and data directories), offline edits through
// invoke() as the replica's user, and a comparable view of every store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Annotation } from '../../src-shared/api/annotations';
import type { AnnotationLog } from '../../src-shared/api/annotationLogs';
import type { OperationName } from '../../src-shared/operations';
import { nowMicros } from '../../src-shared/api/time';
import { Code } from '../../src-shared/errors';
import { loadCaller } from '../../src-main/auth/identity';
import type { Caller } from '../../src-main/auth/caller';
import type { Db } from '../../src-main/db/database';
import { openEngine, type Engine } from '../../src-main/engine';
import { invoke } from '../../src-main/services/invoke';
import { loadAnnotations } from '../../src-main/services/annotations/annotationRows';
import { listAnnotationLogs } from '../../src-main/services/annotations/annotationLogsService';
import { localCaller } from '../../src-main/sync/identity';
import { saveProfile } from '../../src-main/sync/profile';
import { syncReplica } from '../../src-main/sync/assembly/syncReplica';
import type { ReplicaEngine } from '../../src-main/sync/replica';
import { runSync, type SyncOptions, type SyncSummary } from '../../src-main/sync/runSync';
import { createMemorySecretStore } from '../../src-main/sync/secretStore';
import { startTestServer, type TestServer } from '../support/testServer';
import { startFaultProxy, type FaultProxy } from './faultProxy';

export const ASSET = 'Sync-Rig-1';

/** A remote with one asset (annotations need one) and `users` extra members of the organization. */
export async function startRemote(users: string[] = []): Promise<TestServer & { tokens: Record<string, string> }> {
  const server = await startTestServer();
  const db = server.engine.db;
  const org = db.get<{ id: string }>('SELECT organization_id AS id FROM memberships LIMIT 1')!.id;
  const owner = db.get<{ user_id: string }>('SELECT user_id FROM memberships LIMIT 1')!.user_id;
  const now = nowMicros();
  db.run(
    'INSERT INTO assets(id, organization_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ['5a5a5a5a-0000-4000-a000-000000000001', org, ASSET, now, owner, now, owner],
  );
  const tokens: Record<string, string> = {};
  for (const u of users) tokens[u] = server.newToken(u);
  return Object.assign(server, { tokens });
}

export type RemoteServer = Awaited<ReturnType<typeof startRemote>>;

/** The usual sync test bench: a remote, a fault proxy in front of it, and replica `a` that has synced once through it. */
export interface ProxiedPair {
  readonly remote: RemoteServer;
  readonly proxy: FaultProxy;
  readonly a: Replica;
}

/**
 * `colleagues`: further members of the remote's organization; `synced: false`: `a` has not synced yet. The proxy is
 * the strict stand-in of the platform (faultProxy.ts `strict`): a request its API does not allow is refused.
 */
export async function openProxiedPair(options: { colleagues?: string[]; synced?: boolean } = {}): Promise<ProxiedPair> {
  const remote = await startRemote(options.colleagues);
  const proxy = await startFaultProxy(remote.url, { strict: true });
  const a = await createReplica('a', proxy.url, remote.token);
  if (options.synced !== false) await a.sync();
  return { remote, proxy, a };
}

/** Sync options for a run that gives up at the first failure: it ends with a create left in flight, as after a crash. */
export const ONE_TRY: Partial<SyncOptions> = { retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } };

/**
 * The response of the next request `matches` is lost, and every GET after it fails (503) until `proxy.refuse(undefined)`:
 * a ONE_TRY run then ends with that create in flight and nothing pulled after it.
 */
export function loseThenLinkDown(proxy: FaultProxy, matches: (r: { method: string; path: string; body: string }) => boolean): void {
  let lost = false;
  proxy.once({ kind: 'lose' }, (r) => (matches(r) ? (lost = true) : false));
  proxy.refuse((r) => lost && r.method === 'GET', { status: 503, code: Code.UNAVAILABLE, message: 'link down' });
}

export async function closeProxiedPair({ remote, proxy, a }: ProxiedPair): Promise<void> {
  a.close();
  await proxy.close();
  await remote.close();
}

export interface Replica {
  readonly name: string;
  readonly dir: string;
  engine: ReplicaEngine;
  readonly url: string;
  readonly token: string;
  sync(options?: Partial<SyncOptions>): Promise<SyncSummary>;
  caller(): Caller;
  call(op: OperationName, request: unknown): Promise<any>;
  /** Lets go of the data directory (a child `outpost sync` is its one owner meanwhile); `reopen` takes it back. */
  release(): void;
  reopen(): void;
  close(): void;
}

export async function createReplica(
  name: string,
  url: string,
  token: string,
  dir = mkdtempSync(join(tmpdir(), `outpost-replica-${name}-`)),
): Promise<Replica> {
  const secrets = createMemorySecretStore();
  let engine: ReplicaEngine = openEngine(dir, { replica: syncReplica({ replica: true }) });
  let released = false;
  await saveProfile(engine.db, secrets, { baseUrl: url, apiKey: token });
  const replica: Replica = {
    name,
    dir,
    get engine() {
      return engine;
    },
    set engine(e) {
      engine = e;
    },
    url,
    token,
    sync: (options = {}) =>
      runSync({
        db: engine.db,
        catalog: engine.replica.catalog,
        remote: { baseUrl: url, apiKey: token, timeoutMs: 5_000 },
        retry: { baseDelayMs: 5, maxDelayMs: 50, maxAttempts: 4 },
        createQuietMs: 300,
        ...options,
      }),
    caller() {
      const c = localCaller(engine.db);
      if (!c) throw new Error(`${name} has not synced yet: no identity`);
      return c;
    },
    // As the data directory's owner (the desktop user): only the owner's calls write on a replica.
    call: (op, request) => invoke({ engine, db: engine.db, caller: { ...replica.caller(), owner: true } }, op, request),
    release() {
      engine.close();
      released = true;
    },
    reopen() {
      if (!released) engine.close();
      engine = openEngine(dir, { replica: syncReplica() });
      released = false;
    },
    close() {
      if (!released) engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return replica;
}

/** A store's annotations and logs, normalized for comparison across replicas and the remote. */
export interface View {
  annotations: Record<string, Omit<Annotation, 'assignedToUser' | 'metadata'> & { metadata: unknown[] }>;
  logs: Record<string, Omit<AnnotationLog, never>>;
}

export function viewOf(db: Db): View {
  const pks = db.all<{ pk: number }>('SELECT pk FROM annotations ORDER BY id').map((r) => r.pk);
  const annotations: View['annotations'] = {};
  for (const a of loadAnnotations(db, pks)) {
    const { assignedToUser: _u, ...rest } = a;
    annotations[a.annotationId] = { ...rest, metadata: a.metadata.filter((m) => m.key.name !== 'outpost_client_id') };
  }
  const logs: View['logs'] = {};
  const userId = db.get<{ id: string }>('SELECT id FROM users LIMIT 1')?.id ?? '';
  const caller: Caller = {
    userId,
    userName: '',
    organizations: db.all<{ id: string; name: string }>('SELECT id, name FROM organizations'),
  };
  let pageToken: string | undefined;
  const engineLike = { db, pageTokenSecret: db.setting('page_token_secret')! } as unknown as Engine;
  do {
    const page = listAnnotationLogs({ engine: engineLike, db, caller }, { pageSize: 1000, pageToken });
    for (const l of page.annotationLogs) logs[l.annotationLogId] = l;
    pageToken = page.nextPageToken || undefined;
  } while (pageToken);
  return { annotations, logs };
}

/**
 * An asset written straight into a store's database, in its (first) organization, by its first user: one only that
 * store knows (a replica's local asset the remote refuses), or one added to the remote behind the API's back.
 */
export function insertAsset(db: Db, id: string, name: string): void {
  const org = db.get<{ id: string }>('SELECT id FROM organizations LIMIT 1')!.id;
  const user = db.get<{ id: string }>('SELECT id FROM users LIMIT 1')!.id;
  db.run(
    'INSERT INTO assets(id, organization_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [id, org, name, nowMicros(), user, nowMicros(), user],
  );
}

export function callerOf(db: Db, userName: string): Caller {
  const id = db.get<{ id: string }>('SELECT id FROM users WHERE user_name = ?', [userName])!.id;
  return loadCaller(db, id)!;
}

export const annotationRequest = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  startTime: '2026-09-01T00:00:00Z',
  endTime: '2026-09-01T00:01:00Z',
  assets: [ASSET],
  ...extra,
});

export const comment = (annotationId: string, text: string) => ({
  annotationId,
  kind: 'ANNOTATION_LOG_KIND_COMMENT',
  comment: { body: [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text }] },
});
