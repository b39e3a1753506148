// The seam the desktop launcher uses to hand the app a better-sqlite3 build
// for Electron's ABI: OUTPOST_SQLITE_BINDING names the module openDatabase loads.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-main/db/database';

const nodeBuild = join(
  dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')),
  'build',
  'Release',
  'better_sqlite3.node',
);

afterEach(() => {
  delete process.env.OUTPOST_SQLITE_BINDING;
});

describe('OUTPOST_SQLITE_BINDING', () => {
  it('loads the named module', () => {
    process.env.OUTPOST_SQLITE_BINDING = nodeBuild;
    const db = openDatabase(':memory:');
    expect(db.get<{ v: string }>('SELECT sqlite_version() AS v')!.v).toMatch(/^3\./);
    db.close();
  });

  it('fails with the module path named when the module is missing (never silently falls back)', () => {
    process.env.OUTPOST_SQLITE_BINDING = '/nonexistent/better_sqlite3.node';
    expect(() => openDatabase(':memory:')).toThrow(/nonexistent\/better_sqlite3\.node/);
  });
});
