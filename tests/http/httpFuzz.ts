// A seeded hostile-input fuzzer for a real `outpost serve` child process
// (issue #19): requests over every route of the operation table with
// malformed paths and escapes, evil filters, orderings, page tokens, sizes and
// masks, wrong-typed, huge and deep bodies, truncated multipart, forged keys
// and foreign Hosts. Invariants, checked per request:
// - the process stays up, and answers (a request that gets no answer fails);
// - no 5xx (a server error is a bug: every bad input is the caller's error),
//   and 501 only for a well-formed path asked with a method it lacks;
// - every error is the contract's body `{code, message, details}`;
// - a request that fails commits nothing (SQLite's data_version, read through
//   a second connection, moves with every commit of the server's).
import BetterSqlite3 from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OperationDef } from '../../src-shared/api/operation';
import { operations } from '../../src-shared/operations';
import { DATABASE_FILE } from '../../src-main/engine';
import { prng } from '../../src-main/seed/seedDemoData';
import { SECRETS_FILE } from '../../src-main/sync/secretStore';

const OUTPOST = fileURLToPath(new URL('../../bin/outpost.mjs', import.meta.url));

export interface FuzzServer {
  readonly url: string;
  readonly key: string;
  readonly dataDir: string;
  readonly child: ChildProcess;
  readonly ids: string[];
  stderr(): string;
  close(): Promise<void>;
}

/** `outpost serve` on a fresh, seeded directory; its owner key read from the directory's secret file. */
export async function startFuzzServer(): Promise<FuzzServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-http-fuzz-'));
  const child = spawn(process.execPath, [OUTPOST, 'serve', '--data', dataDir, '--port', '0', '--no-sync', '--seed-if-empty'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /API: (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out);
      if (m && /Sync: /.test(out)) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}${err}`)));
  });
  const key = JSON.parse(readFileSync(join(dataDir, SECRETS_FILE), 'utf8'))['serve.owner-session-key'] as string;
  const db = new BetterSqlite3(join(dataDir, DATABASE_FILE), { readonly: true });
  const ids = db
    .prepare(
      'SELECT id FROM (SELECT id FROM annotations LIMIT 20) UNION ALL SELECT id FROM assets UNION ALL SELECT id FROM (SELECT id FROM runs LIMIT 20)',
    )
    .pluck()
    .all() as string[];
  db.close();
  return {
    url,
    key,
    dataDir,
    child,
    ids,
    stderr: () => err,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const EVIL_STRINGS = [
  '',
  ' ',
  '%',
  '%zz',
  '%E0%A4%A',
  '%c0%ae%c0%ae',
  '../../etc/passwd',
  '\u0000',
  '\ud800',
  '🚀'.repeat(50),
  'x'.repeat(70_000),
  "'; DROP TABLE annotations; --",
  '{"a":1}',
  'null',
  'true',
  '-1',
  '1e309',
  'NaN',
  '0x10',
  '9'.repeat(40),
  randomUUID(),
  'ANNOTATION_STATE_OPEN',
  'name desc, created_date',
];
const EVIL_FILTERS = [
  'name == "x"',
  'name ==',
  '(((((((((((((((((((((((((((((((((((((((((x)))))))))))))))))))))))))))))))))))))))))',
  'a'.repeat(30_000),
  `annotation_id in [${Array.from({ length: 600 }, (_, i) => `"${i}"`).join(',')}]`,
  'name.matches("(a+)+$")',
  'name.matches("[")',
  'tags.exists(t, t.exists(u, u))',
  'start_time > timestamp("nope")',
  '1/0 == 1',
  'size(name) > 9223372036854775807',
  '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!x',
  'metadata["k"] == 1',
];
const EVIL_ORDERS = [
  'name',
  'name desc',
  'nope',
  'name desc desc',
  'created_date,,name',
  'name asc, name desc',
  ' '.repeat(5000),
  'modified_date desc, annotation_id',
];
const EVIL_PAGE_TOKENS = [
  '',
  'x',
  'AAAA',
  'eyJhIjoxfQ',
  '%%%',
  'A'.repeat(10_000),
  Buffer.from('{"k":[1,2,3],"fp":"x"}').toString('base64url'),
];
const EVIL_MASKS = [
  '',
  'name',
  'nope',
  'name,,state',
  'annotation.name',
  'properties.search_term',
  'configuration.cedar_policy',
  '*',
  'a'.repeat(5000),
];
const FIELD_NAMES = [
  'name',
  'annotationId',
  'annotation_id',
  'organizationId',
  'filter',
  'orderBy',
  'pageSize',
  'pageToken',
  'updateMask',
  'annotation',
  'savedSearch',
  'policy',
  'rule',
  'testReport',
  'ids',
  'annotationIds',
  'startTime',
  'endTime',
  'assets',
  'tags',
  'metadata',
  'properties',
  'configuration',
  'kind',
  'state',
  'baseUrl',
  'apiKey',
  'remoteFileId',
];

export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: Buffer;
  readonly label: string;
  /**
   * Whether 501 is a right answer: a path some operation has (every id in it non-empty and UTF-8) asked with a
   * method none of the operations reading it cleanly has ("Method Not Allowed", as the platform's gateway answers).
   * Anything else answered 501 is a client error mislabelled. Worked out here from the operation table alone.
   */
  readonly methodMayBeMissing: boolean;
}

/** See FuzzRequest.methodMayBeMissing. */
function methodMissing(method: string, path: string): boolean {
  const pathname = path.split('?')[0];
  const methods = new Set<string>();
  for (const op of Object.values(operations) as OperationDef[]) {
    const literal = op.path.split(/\{[a-z_]+\}/).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const pattern = new RegExp(`^${literal.join('([^/]*)')}$`);
    const m = pattern.exec(pathname);
    if (m && m.slice(1).every((id) => id !== '' && decodes(id))) methods.add(op.method);
  }
  return methods.size > 0 && !methods.has(method);
}

function decodes(s: string): boolean {
  try {
    decodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
}

/** JSON text nested `depth` objects deep (written as text: JSON.stringify would overflow the test's own stack). */
const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** One hostile request, drawn from the seeded generator. */
export function drawRequest(random: () => number, server: Pick<FuzzServer, 'key' | 'ids'>): FuzzRequest {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const names = Object.keys(operations);
  const name = pick(names);
  const op = (operations as Record<string, OperationDef>)[name];
  const param = () => (random() < 0.4 ? pick(server.ids) : random() < 0.5 ? pick(EVIL_STRINGS) : randomUUID());
  let path = op.path.replace(/\{[a-z_]+\}/g, () => {
    const v = param();
    if (random() < 0.15) return v; // raw now and then: malformed escapes and slashes reach the router
    try {
      return encodeURIComponent(v);
    } catch {
      return '%ED%A0%80'; // a lone surrogate: its UTF-8 escape, which no valid string decodes to
    }
  });
  if (random() < 0.05)
    path = pick(['/%', '/%E0%A4%A', '/api/v1/%', '/api/%zz/annotations', '/api/v1/annotations/%c0%ae%c0%ae', `/${'a/'.repeat(2000)}`]);
  const method = random() < 0.9 ? op.method : pick(['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS']);
  const query = new URLSearchParams();
  if (op.input === 'query' || random() < 0.2) {
    const n = Math.floor(random() * 4);
    for (let i = 0; i < n; i++) {
      const k = pick([
        'filter',
        'order_by',
        'orderBy',
        'page_size',
        'pageSize',
        'page_token',
        'organization_id',
        'include_archived',
        'unknown_param',
      ]);
      const v = k.includes('filter')
        ? pick(EVIL_FILTERS)
        : k.startsWith('order')
          ? pick(EVIL_ORDERS)
          : k.includes('token')
            ? pick(EVIL_PAGE_TOKENS)
            : pick(EVIL_STRINGS);
      query.append(k, v);
    }
  }
  const qs = query.toString();
  const headers: Record<string, string> = {};
  const auth = random();
  if (auth < 0.75) headers.Authorization = `Bearer ${server.key}`;
  else if (auth < 0.85) headers.Authorization = `Bearer op_${randomUUID()}`;
  else if (auth < 0.9) headers.Authorization = pick(['Basic abc', 'Bearer', 'Bearer  a b', `Bearer ${'x'.repeat(5000)}`]);
  if (random() < 0.05) headers.Host = pick(['evil.example', 'attacker.test:4280', '10.0.0.1']);
  let body: Buffer | undefined;
  if (op.input === 'multipart' && random() < 0.7) {
    const boundary = 'fuzzboundary';
    headers['Content-Type'] =
      random() < 0.8
        ? `multipart/form-data; boundary=${boundary}`
        : pick(['multipart/form-data', 'multipart/form-data; boundary=', 'text/plain']);
    const parts = [
      `--${boundary}\r\nContent-Disposition: form-data; name="entityType"\r\n\r\n${pick(['annotations', 'runs', 'test_reports', 'nope'])}\r\n`,
    ];
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="entityId"\r\n\r\n${param()}\r\n`);
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${pick(['x.xml', 'a.js', '../../x', ''])}"\r\n\r\n${pick(['<x/>', '<?xml version="1.0"?><tr:TestResults', 'bytes'.repeat(1000)])}`,
    );
    if (random() < 0.5) parts.push(`\r\n--${boundary}--\r\n`); // else: cut before the closing boundary
    body = Buffer.from(parts.join(''));
  } else if (method !== 'GET' && method !== 'HEAD' && random() < 0.95) {
    headers['Content-Type'] = random() < 0.9 ? 'application/json' : pick(['text/plain', 'application/x-www-form-urlencoded']);
    const kind = random();
    let value: unknown;
    if (kind < 0.05) body = Buffer.from(pick(['{', '{"a":', 'nul', '[1,2', '\u0000\u0001', '"\ud800"']));
    else if (kind < 0.1) body = Buffer.from(deepJson(Math.floor(5000 + random() * 20000)));
    else if (kind < 0.15) value = pick([[], 'str', 1, null, true]);
    else if (kind < 0.2) value = { name: 'x'.repeat(200_000) };
    else {
      const obj: Record<string, unknown> = {};
      const n = 1 + Math.floor(random() * 5);
      for (let i = 0; i < n; i++) {
        const k = pick(FIELD_NAMES);
        const r = random();
        obj[k] =
          r < 0.2
            ? pick(EVIL_STRINGS)
            : r < 0.3
              ? pick(server.ids)
              : r < 0.4
                ? pick(EVIL_MASKS)
                : r < 0.5
                  ? Math.floor(random() * 2 ** 40) * (random() < 0.5 ? -1 : 1)
                  : r < 0.6
                    ? [pick(EVIL_STRINGS), pick(server.ids)]
                    : r < 0.7
                      ? { [pick(FIELD_NAMES)]: pick(EVIL_STRINGS), [pick(FIELD_NAMES)]: pick(server.ids) }
                      : r < 0.8
                        ? null
                        : random() < 0.5;
      }
      value = obj;
    }
    if (!body) body = Buffer.from(JSON.stringify(value));
  }
  // Framed like any HTTP client frames a body (Node's own client sends a DELETE's body unframed otherwise).
  if (body) headers['Content-Length'] = String(body.length);
  return {
    method,
    path: path + (qs ? `?${qs}` : ''),
    headers,
    body,
    label: `${name}: ${method} ${(path + (qs ? `?${qs}` : '')).slice(0, 160)}`,
    methodMayBeMissing: methodMissing(method, path),
  };
}

export function send(server: Pick<FuzzServer, 'url'>, r: FuzzRequest): Promise<{ status: number; body: string; contentType: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}${r.path.startsWith('/') ? '' : '/'}${r.path}`,
      { method: r.method, headers: r.headers, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            contentType: String(res.headers['content-type'] ?? ''),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.end(r.body);
  });
}

/**
 * Whether anything was committed to the database since the last call: SQLite's `data_version` of a connection of
 * our own changes exactly when another connection (the server's) commits a change. A failed request must not.
 */
export function commitWatcher(dataDir: string): { changed(): boolean; close(): void } {
  const db = new BetterSqlite3(join(dataDir, DATABASE_FILE), { readonly: true });
  const version = db.prepare('PRAGMA data_version').pluck();
  let last = version.get();
  return {
    changed() {
      const now = version.get();
      const changed = now !== last;
      last = now;
      return changed;
    },
    close: () => db.close(),
  };
}

export interface FuzzResult {
  readonly requests: number;
  readonly byStatus: Record<number, number>;
  readonly failures: string[];
}

/** Runs `count` requests of `seed`; collects every broken invariant (never throws for one). */
export async function runHttpFuzz(server: FuzzServer, seed: number, count: number): Promise<FuzzResult> {
  const random = prng(seed);
  const byStatus: Record<number, number> = {};
  const failures: string[] = [];
  const commits = commitWatcher(server.dataDir);
  for (let i = 0; i < count && failures.length < 10; i++) {
    const r = drawRequest(random, server);
    commits.changed(); // from here on: what this request committed
    let res: Awaited<ReturnType<typeof send>>;
    try {
      res = await send(server, r);
    } catch (e) {
      failures.push(
        `#${i} ${r.label}: no answer (${(e as Error).message}); server ${server.child.exitCode === null ? 'up' : `exited ${server.child.exitCode}`}`,
      );
      if (server.child.exitCode !== null || server.child.signalCode !== null) break;
      continue;
    }
    byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
    if (res.status >= 500 && !(res.status === 501 && r.methodMayBeMissing))
      failures.push(`#${i} ${r.label}: ${res.status} ${res.body.slice(0, 300)}`);
    if (res.status >= 400 && r.method !== 'HEAD') {
      let ok = false;
      try {
        const b = JSON.parse(res.body) as { code?: unknown; message?: unknown; details?: unknown };
        ok =
          res.contentType.startsWith('application/json') &&
          Number.isInteger(b.code) &&
          typeof b.message === 'string' &&
          Array.isArray(b.details) &&
          !/\n\s+at /.test(b.message);
      } catch {
        ok = false;
      }
      if (!ok) failures.push(`#${i} ${r.label}: ${res.status} without the contract's error body: ${res.body.slice(0, 200)}`);
      if (commits.changed()) failures.push(`#${i} ${r.label}: failed with ${res.status} but committed a change to the database`);
    }
  }
  commits.close();
  if (server.child.exitCode !== null || server.child.signalCode !== null)
    failures.push(`the server exited (${server.child.exitCode ?? server.child.signalCode}): ${server.stderr().slice(-500)}`);
  return { requests: Object.values(byStatus).reduce((a, b) => a + b, 0), byStatus, failures };
}
