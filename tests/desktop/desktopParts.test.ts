// The desktop main process's small parts, each on its own: the log file
// (real electron-log writing a real file), the update wiring (when it checks
// and when it stays off), the remembered window bounds and the menu template
// for a packaged app and for macOS. tests/desktop/electronMain.test.ts runs
// them together in the built bundle.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createAppLog, redactSecrets } from '../../src-main/electron/appLog';
import { appMenuTemplate } from '../../src-main/electron/appMenu';
import { documentationPath } from '../../src-main/electron/documentation';
import {
  loadUpdateSetting,
  readBuildFeedUrl,
  saveUpdateSetting,
  startUpdateChecks,
  type UpdaterLike,
} from '../../src-main/electron/updates';
import { DEFAULT_BOUNDS, loadWindowBounds, saveWindowBounds } from '../../src-main/electron/windowState';

const dir = mkdtempSync(join(tmpdir(), 'outpost-desktop-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the log file', () => {
  test('is main.log in the logs folder, and no API key reaches it', () => {
    const log = createAppLog(join(dir, 'logs'), { console: false });
    expect(log.file).toBe(join(dir, 'logs', 'main.log'));
    const key = `op_${'k'.repeat(43)}`;
    log.error(`sync failed: GET /api/v1/annotations with Authorization: Bearer ${key}`);
    log.warn(`profile {"baseUrl":"https://sift.example","apiKey":"sk-live-123"} api_key=abc123`);
    log.error('a crash', new Error(`while sending ${key}`));
    const text = readFileSync(log.file, 'utf8');
    expect(text).toContain('sync failed: GET /api/v1/annotations with Authorization: Bearer [redacted]');
    expect(text).toContain('"apiKey":"[redacted]"} api_key=[redacted]');
    expect(text).toContain('while sending [redacted]');
    expect(text).not.toContain(key);
    expect(text).not.toContain('sk-live-123');
  });

  test('redaction leaves ordinary words alone', () => {
    expect(redactSecrets('engine host was killed; restarting it')).toBe('engine host was killed; restarting it');
    expect(redactSecrets('operation op_x done')).toBe('operation op_x done');
  });
});

describe('update checks', () => {
  const fakeUpdater = () => {
    const calls: string[] = [];
    const updater: UpdaterLike = {
      autoDownload: false,
      autoInstallOnAppQuit: false,
      checkForUpdates: async () => void calls.push('check'),
    };
    return { updater, calls };
  };
  const quiet = { info: () => {}, warn: () => {} };

  test('the feed is the one the build wrote into resources/app-update.yml; none when the build names none', () => {
    const resources = join(dir, 'resources');
    mkdirSync(resources, { recursive: true });
    expect(readBuildFeedUrl(resources)).toBeUndefined();
    expect(readBuildFeedUrl(undefined)).toBeUndefined();
    // As electron-builder's publish (generic provider) writes it.
    writeFileSync(
      join(resources, 'app-update.yml'),
      'provider: generic\nurl: https://updates.example/outpost\nupdaterCacheDirName: outpost-updater\n',
    );
    expect(readBuildFeedUrl(resources)).toBe('https://updates.example/outpost');
  });

  test('are off unpackaged, without a feed, with a feed that is not https, or when the user turned them off; electron-updater is not even loaded', async () => {
    let loaded = 0;
    const loadUpdater = async () => (loaded++, fakeUpdater().updater);
    const base = { isOnline: () => true, loadUpdater, log: quiet, enabled: true };
    const feed = 'https://updates.example/outpost';
    expect((await startUpdateChecks({ ...base, isPackaged: false, feedUrl: feed })).state).toBe('off: not packaged');
    expect((await startUpdateChecks({ ...base, isPackaged: true, feedUrl: undefined })).state).toBe('off: this build names no update feed');
    expect((await startUpdateChecks({ ...base, isPackaged: true, feedUrl: '  ' })).state).toBe('off: this build names no update feed');
    expect((await startUpdateChecks({ ...base, isPackaged: true, feedUrl: 'http://updates.example/outpost' })).state).toBe(
      'off: the feed is not https',
    );
    expect((await startUpdateChecks({ ...base, isPackaged: true, feedUrl: 'file:///tmp/feed' })).state).toBe('off: the feed is not https');
    expect((await startUpdateChecks({ ...base, isPackaged: true, feedUrl: feed, enabled: false })).state).toBe(
      'off: turned off in the app',
    );
    expect(loaded).toBe(0);
  });

  test("the user's setting is kept in userData (default on; a damaged file reads as on)", () => {
    const file = join(dir, 'userData', 'update-settings.json');
    expect(loadUpdateSetting(file)).toBe(true);
    saveUpdateSetting(file, false);
    expect(loadUpdateSetting(file)).toBe(false);
    saveUpdateSetting(file, true);
    expect(loadUpdateSetting(file)).toBe(true);
    writeFileSync(file, '{not json');
    expect(loadUpdateSetting(file)).toBe(true);
  });

  test('packaged with an https feed: download in the background, install on quit; checks only when online', async () => {
    const { updater, calls } = fakeUpdater();
    let online = false;
    const checks = await startUpdateChecks({
      isPackaged: true,
      enabled: true,
      feedUrl: 'https://updates.example/outpost',
      isOnline: () => online,
      loadUpdater: async () => updater,
      log: quiet,
    });
    expect(checks.state).toBe('on');
    expect(updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true });
    expect(await checks.check()).toBe(false);
    online = true;
    expect(await checks.check()).toBe(true);
    expect(calls).toEqual(['check']);
    checks.stop();
  });
});

describe('window bounds', () => {
  test('round-trip; a missing or damaged file gives the defaults; too small is raised to the minimum', () => {
    const file = join(dir, 'userData', 'window-state.json');
    expect(loadWindowBounds(file)).toEqual(DEFAULT_BOUNDS);
    saveWindowBounds(file, { x: 10, y: 20, width: 1300, height: 700, maximized: true });
    expect(loadWindowBounds(file)).toEqual({ x: 10, y: 20, width: 1300, height: 700, maximized: true });
    writeFileSync(file, '{"width": 100, "height": 50}');
    expect(loadWindowBounds(file)).toEqual({ width: 960, height: 600, maximized: false });
    writeFileSync(file, '{not json');
    expect(loadWindowBounds(file)).toEqual(DEFAULT_BOUNDS);
    writeFileSync(file, '{"width": "wide", "height": 700}');
    expect(loadWindowBounds(file)).toEqual(DEFAULT_BOUNDS);
  });
});

describe('the menu template', () => {
  const actions = {
    importTestReport: () => {},
    syncNow: () => {},
    switchProfile: () => {},
    openDocumentation: () => {},
    showShortcuts: () => {},
    openLogsFolder: () => {},
    setUpdateChecks: () => {},
  };
  const roles = (items: unknown) => JSON.stringify(items).match(/"role":"(\w+)"/g);

  test('a packaged app has no dev tools', () => {
    expect(roles(appMenuTemplate(actions, { isPackaged: false, platform: 'linux', profile: 'real', updateChecks: true }))).toContain(
      '"role":"toggleDevTools"',
    );
    expect(roles(appMenuTemplate(actions, { isPackaged: true, platform: 'linux', profile: 'real', updateChecks: true }))).not.toContain(
      '"role":"toggleDevTools"',
    );
  });

  test('macOS gets the app menu first and File > Close instead of Quit', () => {
    const mac = appMenuTemplate(actions, { isPackaged: true, platform: 'darwin', profile: 'real', updateChecks: true });
    expect(mac[0]).toEqual({ role: 'appMenu' });
    expect(JSON.stringify(mac[1])).toContain('"role":"close"');
    expect(JSON.stringify(mac[1])).not.toContain('"role":"quit"');
  });

  test('File offers the other profile: the demo from the real one, the real one from the demo', () => {
    const fileItems = (profile: 'real' | 'demo') =>
      (
        appMenuTemplate(actions, { isPackaged: true, platform: 'linux', profile, updateChecks: true })[0].submenu as { label?: string }[]
      ).map((i) => i.label);
    expect(fileItems('real')).toContain('Open Demo Profile');
    expect(fileItems('demo')).toContain('Open My Profile');
    expect(fileItems('demo')).not.toContain('Open Demo Profile');
  });
});

describe('Help > Documentation', () => {
  test("opens the guide packaged beside app.asar (electron-builder's extraResources), or the repository's README while unpackaged", () => {
    expect(documentationPath({ isPackaged: true, getAppPath: () => '/opt/Outpost/resources/app.asar' }, '/opt/Outpost/resources')).toBe(
      join('/opt/Outpost/resources', 'docs', 'README.md'),
    );
    expect(documentationPath({ isPackaged: false, getAppPath: () => '/home/me/outpost' }, '')).toBe(join('/home/me/outpost', 'README.md'));
  });
});
