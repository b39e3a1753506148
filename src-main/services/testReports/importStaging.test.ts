import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeStaleStagingFiles, stagingPath } from './importStaging';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('removeStaleStagingFiles', () => {
  it('deletes only staging files older than a day', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-staging-'));
    dirs.push(dir);
    const stale = stagingPath(dir, 'old');
    const fresh = stagingPath(dir, 'new');
    const other = join(dir, 'upload-old');
    for (const p of [stale, fresh, other]) writeFileSync(p, 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    utimesSync(stale, twoDaysAgo, twoDaysAgo);
    utimesSync(other, twoDaysAgo, twoDaysAgo);
    removeStaleStagingFiles(dir);
    expect([existsSync(stale), existsSync(fresh), existsSync(other)]).toEqual([false, true, true]);
    removeStaleStagingFiles(join(dir, 'missing')); // no directory yet: nothing to do
  });
});
