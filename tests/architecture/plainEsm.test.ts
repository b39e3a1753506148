// Under plain Node ESM (tsx's loader, as `npm run soak` and the CLI run the
// sources), every sync module can be the first one imported: module
// evaluation order is what an import cycle would break ("Cannot access X
// before initialization"), which vitest's bundling hides. One child process
// per module, so each is truly imported first.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { ROOT, sourceFiles } from './importGraph';

const run = promisify(execFile);

async function importFirst(file: string): Promise<string | undefined> {
  const url = pathToFileURL(join(ROOT, file)).href;
  try {
    await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `await import(${JSON.stringify(url)});`], {
      cwd: ROOT,
      timeout: 60_000,
    });
    return undefined;
  } catch (e) {
    const { stderr, message } = e as { stderr?: string; message: string };
    return `${file}: ${(stderr || message).split('\n').find((l) => /Error/.test(l)) ?? message}`;
  }
}

test('every sync module imports first under plain Node ESM without a ReferenceError', { timeout: 300_000 }, async () => {
  const modules = sourceFiles(['src-main/sync']).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  expect(modules.length).toBeGreaterThan(50);
  const failures: string[] = [];
  // Two at a time: the machine is shared.
  for (let i = 0; i < modules.length; i += 2) {
    for (const failure of await Promise.all(modules.slice(i, i + 2).map(importFirst))) if (failure) failures.push(failure);
  }
  expect(failures).toEqual([]);
});
