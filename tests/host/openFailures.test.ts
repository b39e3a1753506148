// Bad input and failure at first start (#29): a profile folder that cannot be
// written, a lock held by `outpost serve`, a database from a newer Outpost —
// the built engine host in a real child process refuses each with a sentence
// that names the directory and says what to do, never a stack, and changes
// nothing. A full disk (which these machines cannot make on demand) gets its
// sentence from the same mapping, checked on the error the file system gives.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, test } from 'vitest';
import { DATABASE_FILE, openEngine } from '../../src-main/engine';
import { describeOpenFailure } from '../../src-main/host/openFailure';
import { EngineHostSupervisor } from '../../src-main/host/supervisor';
import { createMemorySecretStore } from '../../src-main/sync/secretStore';
import { launcherFor } from '../support/engineHost';
import { ensureMainBuilt } from '../support/mainBundle';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-open-failure-'));
  dirs.push(dir);
  return dir;
};

/** Starts the built host on `dataDir`; resolves with why it failed (it must fail), after one launch only. */
async function failureOf(dataDir: string): Promise<string> {
  await ensureMainBuilt();
  let launches = 0;
  const launch = launcherFor('built-fork');
  const supervisor = new EngineHostSupervisor({
    launch: () => (launches++, launch()),
    init: { dataDir },
    secrets: createMemorySecretStore(),
    restartDelayMs: () => 0,
  });
  const message = await supervisor.start().then(
    () => 'opened',
    (error: Error) => error.message,
  );
  await supervisor.stop();
  expect(launches).toBe(1); // a profile that cannot be opened is not retried in a loop
  expect(message).not.toMatch(/\n\s+at /); // no stack
  return message;
}

describe('a profile that cannot be opened at first start (built engine host, real child process)', () => {
  test('a folder that cannot be written: named, with what to do', async () => {
    // (These tests run as root, whom permissions do not stop: sysfs refuses even root.)
    const dir = `/sys/outpost-profile-${process.pid}`;
    expect(await failureOf(dir)).toBe(
      `Outpost cannot write to its profile folder ${dir} (EPERM): make the folder writable by your user, or start Outpost with OUTPOST_DATA_DIR set to another folder. Nothing was changed.`,
    );
  });

  test('a lock held by outpost serve: who holds it, and to stop it', async () => {
    const dir = tempDir();
    const holder = openEngine(dir, { holder: { command: 'serve' } });
    try {
      expect(await failureOf(dir)).toBe(
        `${dir} is in use by outpost serve (pid ${process.pid}): stop it (or close the other Outpost window), then start Outpost again. Nothing was changed.`,
      );
    } finally {
      holder.close();
    }
  });

  test('a database from a newer Outpost: refused, and the file is left exactly as it was', async () => {
    const dir = tempDir();
    openEngine(dir).close();
    const file = join(dir, DATABASE_FILE);
    const raw = new Database(file);
    raw.pragma('user_version = 9999');
    raw.close();
    const before = { bytes: readFileSync(file), mtime: statSync(file).mtimeMs };
    expect(await failureOf(dir)).toMatch(
      new RegExp(
        `^The profile in ${dir} cannot be used: database schema version 9999 is newer than this Outpost \\(\\d+\\): it was written by a newer Outpost; install that version \\(nothing was changed\\)\\.$`,
      ),
    );
    expect(readFileSync(file).equals(before.bytes)).toBe(true);
    expect(statSync(file).mtimeMs).toBe(before.mtime);
  });

  test('a full disk: the sentence the window shows', () => {
    const enospc = Object.assign(new Error("ENOSPC: no space left on device, mkdir '/media/full/outpost'"), { code: 'ENOSPC' });
    expect(describeOpenFailure('/media/full/outpost', enospc)).toBe(
      'The disk holding /media/full/outpost is full (ENOSPC): free some space, then start Outpost again. Nothing was overwritten.',
    );
    const sqliteFull = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    expect(describeOpenFailure('/p', sqliteFull)).toMatch(/^The disk holding \/p is full \(SQLITE_FULL\)/);
  });
});
