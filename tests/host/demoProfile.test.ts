// Profiles (#29 item 1, #30 item 5's seed): the user's own profile starts
// empty; the demo dataset lives in its own directory, is asked for explicitly,
// gets fresh ids per directory, and marks the database a demo profile, which
// no path links to a remote: the engine host (the desktop app's IPC path), the
// HTTP API, `outpost sync --remote`. `outpost serve --demo` serves the demo
// directory beside the real one and never touches the real one.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { Code } from '../../src-shared/errors';
import { demoDataDir } from '../../src-main/db/dataDir';
import { DEMO_LINK_REFUSED, isDemoProfile } from '../../src-main/db/demoProfile';
import { isReplica, openEngine } from '../../src-main/engine';
import { seedDemoData } from '../../src-main/seed/seedDemoData';
import { REPO_ROOT, startTestHost } from '../support/engineHost';
import { startTestServer } from '../support/testServer';

const OUTPOST = join(REPO_ROOT, 'bin', 'outpost.mjs');
const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `outpost-profile-${name}-`));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const ids = (dir: string, table: string) => {
  const engine = openEngine(dir);
  try {
    return engine.db.all<{ id: string }>(`SELECT id FROM ${table} ORDER BY id`).map((r) => r.id);
  } finally {
    engine.close();
  }
};

describe('the demo seed', () => {
  test('makes fresh ids per data directory; seeding the same directory again adds nothing; it marks a demo profile', () => {
    const [a, b] = [tempDir('a'), tempDir('b')];
    for (const dir of [a, b]) {
      const engine = openEngine(dir);
      expect(isDemoProfile(engine.db)).toBe(false);
      expect(seedDemoData(engine.db, { annotations: 40 }).annotations).toBe(40);
      expect(isDemoProfile(engine.db)).toBe(true);
      engine.close();
    }
    for (const table of ['annotations', 'annotation_logs', 'assets', 'runs', 'channels', 'tags']) {
      const [inA, inB] = [ids(a, table), ids(b, table)];
      expect(inA.length, table).toBeGreaterThan(0);
      expect(
        inA.filter((id) => inB.includes(id)),
        `${table} ids shared by two demo directories`,
      ).toEqual([]);
    }
    // The same content in both (names are deterministic), and a second seed of one directory changes nothing.
    const names = (dir: string) => {
      const engine = openEngine(dir);
      try {
        return engine.db.all<{ name: string }>('SELECT name FROM annotations ORDER BY name').map((r) => r.name);
      } finally {
        engine.close();
      }
    };
    expect(names(a)).toEqual(names(b));
    const before = ids(a, 'annotations');
    const engine = openEngine(a);
    expect(seedDemoData(engine.db, { annotations: 40 })).toMatchObject({ annotations: 0, annotationLogs: 0 });
    engine.close();
    expect(ids(a, 'annotations')).toEqual(before);
  });
});

describe('profiles in the engine host (built bundle, its own process)', () => {
  test("the user's profile starts empty: no demo data unless the demo profile is asked for", async () => {
    const host = await startTestHost({ runner: 'built-fork', init: { backgroundSync: true } });
    try {
      const page = await host.supervisor.call('ListAnnotations', { pageSize: 5 });
      expect(page).toEqual({ ok: true, data: { annotations: [], nextPageToken: '' } });
    } finally {
      await host.close();
    }
  });

  test('the demo profile is seeded, and linking it is refused with FAILED_PRECONDITION; nothing is stored', async () => {
    const host = await startTestHost({ runner: 'built-fork', init: { seedDemoData: true, backgroundSync: true } });
    try {
      const page = await host.supervisor.call('ListAnnotations', { pageSize: 5 });
      expect(page.ok && (page.data as { annotations: unknown[] }).annotations).toHaveLength(5);
      const linked = await host.supervisor.call('ConfigureSyncRemote', { baseUrl: 'https://platform.example', apiKey: 'k-123' });
      expect(linked).toEqual({ ok: false, error: { code: Code.FAILED_PRECONDITION, message: DEMO_LINK_REFUSED, details: [] } });
      expect(await host.supervisor.call('GetSyncRemote', {})).toEqual({ ok: true, data: { remote: null } });
      expect(await host.secrets.get('remote:https://platform.example')).toBeUndefined();
    } finally {
      await host.close();
    }
  });
});

describe('a demo profile is never linked, whichever way is asked', () => {
  test('HTTP: PUT /api/v1/outpost/sync/remote answers 400 FAILED_PRECONDITION and the directory stays local', async () => {
    const dir = tempDir('http');
    const seeded = openEngine(dir);
    seedDemoData(seeded.db, { annotations: 5 });
    seeded.close();
    const server = await startTestServer({ dataDir: dir });
    try {
      const res = await server.api('PUT', '/api/v1/outpost/sync/remote', { baseUrl: 'https://platform.example', apiKey: 'k' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: Code.FAILED_PRECONDITION, message: DEMO_LINK_REFUSED, details: [] });
      expect(isReplica(server.engine.db)).toBe(false);
    } finally {
      await server.close();
    }
  });

  test('CLI: `outpost sync --remote` exits 2 saying why, and the directory stays local', () => {
    const dir = tempDir('cli');
    const seeded = spawnSync(process.execPath, [OUTPOST, 'seed', '--data', dir, '--annotations', '3'], { encoding: 'utf8' });
    expect(seeded.status).toBe(0);
    const r = spawnSync(process.execPath, [OUTPOST, 'sync', '--data', dir, '--remote', 'http://127.0.0.1:9', '--token', 'k'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('this is a demo profile');
    const engine = openEngine(dir);
    expect(isReplica(engine.db)).toBe(false);
    engine.close();
  });
});

describe('outpost serve --demo (what npm run serve runs)', () => {
  test('serves the demo directory beside the real one, seeded; the real directory is not touched', async () => {
    const parent = tempDir('serve');
    const real = join(parent, 'outpost');
    const child = spawn(process.execPath, [OUTPOST, 'serve', '--demo', '--port', '0', '--no-sync'], {
      env: { ...process.env, OUTPOST_DATA_DIR: real },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (c: Buffer) => {
          text += c.toString();
          if (text.includes('Sync:')) resolve(text);
        });
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${text}`)));
      });
      expect(out).toMatch(/seeded demo data: 3000 annotations/);
      expect(out).toContain(`Outpost serving ${demoDataDir(real)}`);
      expect(demoDataDir(real)).toBe(join(parent, 'outpost-demo'));
      expect(existsSync(real)).toBe(false);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});
