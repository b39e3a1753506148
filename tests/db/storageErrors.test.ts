// Storage failures as errors a user can act on (issue #19 item 9), with real
// SQLite files: a full database, a write lock held elsewhere, damaged pages,
// a truncated or foreign file at open. Each request that fails changes nothing.
import BetterSqlite3 from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, test } from 'vitest';
import { DATABASE_FILE } from '../../src-main/engine';
import { seedDemoData } from '../../src-main/seed/seedDemoData';
import { startTestServer, type TestServer } from '../support/testServer';
import { annotationRequest as annotation, startRemote } from '../sync/helpers';

const run = promisify(execFile);
const OUTPOST = fileURLToPath(new URL('../../bin/outpost.mjs', import.meta.url));
const outpost = (...args: string[]) =>
  run(process.execPath, [OUTPOST, ...args]).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

const dirs: string[] = [];
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const freshDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'outpost-storage-'));
  dirs.push(d);
  return d;
};
const count = (s: TestServer) => s.engine.db.get<{ n: number }>('SELECT count(*) AS n FROM annotations')!.n;

describe('requests on a database that cannot take the write', () => {
  test('a full database is RESOURCE_EXHAUSTED "disk full", and nothing is written', async () => {
    const s = await startRemote();
    servers.push(s);
    const pages = s.engine.db.raw.pragma('page_count', { simple: true }) as number;
    // The file may not grow by one more page: SQLite's own "database or disk is full" (SQLITE_FULL).
    s.engine.db.raw.pragma(`max_page_count = ${pages}`);
    const before = count(s);
    const res = await s.api('POST', '/api/v1/annotations', annotation('x'.repeat(200_000)));
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 8, message: expect.stringContaining('disk full') });
    expect(count(s)).toBe(before);
  });

  test('a write lock held elsewhere (past the busy timeout) is UNAVAILABLE with retry advice', async () => {
    const s = await startRemote();
    servers.push(s);
    s.engine.db.raw.pragma('busy_timeout = 200');
    const other = new BetterSqlite3(join(s.dataDir, DATABASE_FILE));
    other.exec('BEGIN IMMEDIATE');
    try {
      const res = await s.api('POST', '/api/v1/annotations', annotation('while locked'));
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 14, message: expect.stringContaining('try again') });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await s.api('POST', '/api/v1/annotations', annotation('after the lock'))).status).toBe(200);
  });

  test('damaged pages are DATA_LOSS with what to do, not "internal error"', async () => {
    const dir = freshDir();
    const seeded = await startTestServer({ dataDir: dir });
    seedDemoData(seeded.engine.db, { annotations: 3000 });
    seeded.engine.db.raw.pragma('wal_checkpoint(TRUNCATE)');
    await seeded.close();
    // Garbage over the middle of the file: annotation pages among them.
    const file = join(dir, DATABASE_FILE);
    const size = statSync(file).size;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(size / 4, 0xa5), 0, size / 4, Math.floor(size / 3 / 4096) * 4096);
    closeSync(fd);
    const s = await startTestServer({ dataDir: dir });
    servers.push(s);
    const res = await s.api('GET', '/api/v1/annotations?page_size=1000&filter=' + encodeURIComponent('name.contains("no such name")'));
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 15, message: expect.stringContaining('damaged') });
    expect(res.body.message).toContain('backup');
  });
});

describe('a database file that cannot be used is refused at open, with a hint, and left as it is', () => {
  test('a zero-length database file', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, DATABASE_FILE), '');
    const r = await outpost('seed', '--data', dir, '--annotations', '1');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is empty (0 bytes)');
    expect(r.stderr).toContain('restore it from a backup');
    expect(statSync(join(dir, DATABASE_FILE)).size).toBe(0);
  });

  test('a file that is not a database', async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, DATABASE_FILE), Buffer.alloc(8192, 0x42));
    const r = await outpost('keys', 'create', '--data', dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a readable Outpost database .*restore it from a backup/);
    expect(statSync(join(dir, DATABASE_FILE)).size).toBe(8192);
  });
});
