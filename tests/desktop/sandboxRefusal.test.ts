// A packaged Outpost never runs without Chromium's sandbox (#29 item 3):
// electron-builder's AppImage launcher adds --no-sandbox where user namespaces
// are restricted (Ubuntu 23.10+), so main refuses that start and says what to
// do instead. Checked on the sentences and on the built main bundle (stand-in
// electron, playing a packaged AppImage started by that launcher).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  appArmorRestrictsUserNamespaces,
  SANDBOX_REFUSAL_TITLE,
  sandboxRefusal,
  type LaunchFacts,
} from '../../src-main/electron/sandboxRefusal';
import { startElectronMain } from '../support/electronMain';

const APPIMAGE = '/home/field/Downloads/Outpost-1.2.0.AppImage';
const facts = (overrides: Partial<LaunchFacts>): LaunchFacts => ({
  isPackaged: true,
  argv: ['/tmp/.mount_OutposX/outpost', '--no-sandbox'],
  env: { APPIMAGE },
  userNamespacesRestricted: () => true,
  ...overrides,
});

describe('which starts are refused', () => {
  test('a packaged AppImage started with --no-sandbox: the .deb, the sysctl and the AppImage path, in words', () => {
    const text = sandboxRefusal(facts({}))!;
    expect(text).toContain('restricts unprivileged user namespaces with AppArmor');
    expect(text).toContain('sudo apt install ./outpost_<version>_amd64.deb');
    expect(text).toContain('sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0');
    expect(text).toContain(`start ${APPIMAGE} again`);
    expect(text).toContain('Your data is untouched.');
    // Without Ubuntu's switch the reason is said without naming AppArmor; what to do is the same.
    const other = sandboxRefusal(facts({ userNamespacesRestricted: () => false }))!;
    expect(other).not.toContain('AppArmor (Ubuntu');
    expect(other).toContain('sudo apt install');
  });

  test('a packaged app given --no-sandbox by hand is refused too; a sandboxed start and a start from the sources are not', () => {
    expect(sandboxRefusal(facts({ env: {} }))).toMatch(/^Outpost was started with --no-sandbox/);
    expect(sandboxRefusal(facts({ argv: ['/opt/Outpost/outpost'] }))).toBeUndefined();
    expect(sandboxRefusal(facts({ isPackaged: false }))).toBeUndefined();
  });

  test("Ubuntu's switch is read from its /proc file; a system without it is not restricted", () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-userns-'));
    try {
      const file = join(dir, 'apparmor_restrict_unprivileged_userns');
      writeFileSync(file, '1\n');
      expect(appArmorRestrictsUserNamespaces(file)).toBe(true);
      writeFileSync(file, '0\n');
      expect(appArmorRestrictsUserNamespaces(file)).toBe(false);
      expect(appArmorRestrictsUserNamespaces(join(dir, 'missing'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the built main, packaged, as the AppImage launcher starts it on a restricting system', () => {
  test('shows the sentences in an error box and exits 1 with no engine and no window started', async () => {
    const main = await startElectronMain({ env: { FAKE_ELECTRON_PACKAGED: '1', APPIMAGE }, args: ['--no-sandbox'] });
    try {
      expect(await main.exited).toBe(1);
      const box = main.records.find((r) => r.api === 'dialog.showErrorBox');
      expect(box).toMatchObject({ title: SANDBOX_REFUSAL_TITLE });
      expect(box!.content).toContain(`start ${APPIMAGE} again`);
      expect(main.records.filter((r) => r.api === 'utilityProcess.fork' || r.api === 'BrowserWindow')).toEqual([]);
    } finally {
      main.cleanup();
    }
  });
});
