// The real-Electron smoke test (#29 item 9), for machines that have Electron's
// runtime (the release workflow installs it; these build machines cannot):
// Playwright's _electron.launch of the built app starts it on an empty data
// directory, shows the empty real profile, opens the demo profile, lists
// annotations, opens one, and quits leaving no process behind. Where the
// runtime is missing it says so in one line, and only the detection runs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ensureMainBuilt, repoRoot } from '../support/mainBundle';

/** The Electron binary `npm ci` would have installed (node_modules/electron/path.txt names it), if it is there. */
function electronBinary(): string | undefined {
  const dir = join(repoRoot, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(dir, 'dist', execFileSync('cat', [pathFile], { encoding: 'utf8' }).trim());
  return existsSync(binary) ? binary : undefined;
}

const binary = electronBinary();
if (!binary)
  console.log(
    'electron smoke test: not run here: no Electron runtime installed (node_modules/electron/dist); the release workflow runs it',
  );

describe('the real-Electron smoke test', () => {
  test('finds the Electron runtime exactly when its binary is installed', () => {
    const dir = join(repoRoot, 'node_modules', 'electron');
    expect(binary === undefined).toBe(!existsSync(join(dir, 'path.txt')) || !existsSync(join(dir, 'dist')));
    // The module's own answer (require('electron') in Node is the binary's path) agrees.
    const named = createRequire(import.meta.url)('electron/package.json') as { version: string };
    expect(named.version).toMatch(/^45\./);
  });

  if (!binary) return;

  test('starts on an empty profile, opens the demo, lists and opens an annotation, quits leaving no process', async () => {
    await ensureMainBuilt();
    const home = mkdtempSync(join(tmpdir(), 'outpost-smoke-'));
    const dataDir = join(home, 'outpost');
    const app = await electron.launch({
      executablePath: binary,
      args: [join(repoRoot, 'out', 'main', 'index.js')],
      env: { ...process.env, OUTPOST_DATA_DIR: dataDir },
    });
    const pid = app.process().pid!;
    try {
      const window = await app.firstWindow();
      await window.getByTestId('empty-profile').waitFor();
      await window.getByRole('button', { name: 'Try with demo data' }).click();
      await window.getByTestId('demo-profile').waitFor({ timeout: 60_000 });
      const row = window.locator('[role="listbox"] [role="option"]').first();
      await row.waitFor();
      await row.click();
      await window.getByTestId('detail-name').waitFor();
      expect(await window.getByTestId('detail-name').textContent()).toMatch(/#\d+$/);
    } finally {
      await app.close();
      rmSync(home, { recursive: true, force: true });
    }
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
