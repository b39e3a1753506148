// Under plain Node ESM (tsx's loader, as `npm run soak` and the CLI run the
// sources) every sync module evaluates without error: vitest's bundling hides
// evaluation order. The cycle test (imports.test.ts) already rules out the
// cycles that could break it ("Cannot access X before initialization"), so
// one process importing every module once is the guard left to keep.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { ROOT, sourceFiles } from './importGraph';

const run = promisify(execFile);

test('every sync module imports under plain Node ESM without an error', { timeout: 60_000 }, async () => {
  const modules = sourceFiles(['src-main/sync']).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  expect(modules.length).toBeGreaterThan(50);
  const urls = modules.map((f) => pathToFileURL(join(ROOT, f)).href);
  // Each import is awaited alone, so a failure names its module.
  const script = `for (const url of ${JSON.stringify(urls)}) {
    try { await import(url); } catch (e) { console.error('FAILED ' + url + ': ' + (e && e.message)); process.exitCode = 1; }
  }`;
  const result = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    timeout: 60_000,
  }).catch((e: { stderr?: string; message: string }) => ({ stderr: e.stderr ?? e.message }));
  expect(result.stderr.split('\n').filter((l) => l.startsWith('FAILED'))).toEqual([]);
  expect(result.stderr).toBe('');
});
