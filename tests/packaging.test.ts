// The desktop app's packaging (issue #16): electron-builder.yml loaded and
// validated by electron-builder's own loader and JSON schema, with what a field
// laptop relies on spelled out: installers per platform, native and wasm
// modules unpacked from the asar, Electron's fuses set.
import { DebugLogger } from 'builder-util';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');
/** js-yaml (a devDependency, no type declarations): only its load is used. */
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

describe('electron-builder configuration', () => {
  test("is valid against electron-builder's schema", async () => {
    const config = await getConfig(root, resolve(root, 'electron-builder.yml'), null);
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  test('a misspelt option is refused by that same validation (the check can fail)', async () => {
    const config = await getConfig(root, resolve(root, 'electron-builder.yml'), null);
    await expect(
      validateConfiguration({ ...config, linux: { ...config.linux, targett: 'AppImage' } as never }, new DebugLogger(false)),
    ).rejects.toThrow(/Invalid configuration object[\s\S]*configuration\.linux/);
  });

  test('installers for every platform, native and wasm unpacked, fuses set', async () => {
    const config = await getConfig(root, resolve(root, 'electron-builder.yml'), null);
    expect(config.appId).toBe('io.outpost.desktop');
    expect(config.productName).toBe('Outpost');
    // The .deb first (the recommended Linux install), and a zip beside each dmg (what the macOS updater reads).
    expect(config.linux?.target).toEqual(['deb', 'AppImage']);
    expect(config.mac?.target).toEqual([
      { target: 'dmg', arch: ['x64', 'arm64'] },
      { target: 'zip', arch: ['x64', 'arm64'] },
    ]);
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['**/*.node', '**/*.wasm']));
    expect(config.npmRebuild).toBe(true);
    // A production dependency the collector cannot place stops the build (v26 would only warn and ship an app
    // without it: better-sqlite3 without `bindings`). npm run package:check packs and checks the whole closure.
    expect(config.allowMissingDependencies).toBe(false);
    // Help > Documentation opens resources/docs/README.md.
    expect(config.extraResources).toEqual([
      { from: 'README.md', to: 'docs/README.md' },
      { from: 'docs', to: 'docs/docs' },
    ]);
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });
});

describe('updates and installers', () => {
  test("the update feed is part of the build: electron-builder's publish, a generic provider, its URL from the build's environment", async () => {
    const config = await getConfig(root, resolve(root, 'electron-builder.yml'), null);
    expect(config.publish).toEqual({ provider: 'generic', url: '${env.OUTPOST_UPDATE_FEED}' });
  });

  test("the .deb installs electron-builder's AppArmor profile, which lets Chromium's sandbox make its user namespace", async () => {
    const config = await getConfig(root, resolve(root, 'electron-builder.yml'), null);
    // No override of the profile or of the after-install script that installs it.
    expect(config.deb?.appArmorProfile).toBeUndefined();
    expect(config.deb?.afterInstall).toBeUndefined();
    const templates = join(dirname(createRequire(import.meta.url).resolve('app-builder-lib/package.json')), 'templates', 'linux');
    const profile = readFileSync(join(templates, 'apparmor-profile.tpl'), 'utf8');
    expect(profile).toMatch(/profile "\$\{executable\}" "\/opt\/\$\{sanitizedProductName\}\/\$\{executable\}" flags=\(unconfined\)/);
    expect(profile).toMatch(/^\s*userns,$/m);
    expect(readFileSync(join(templates, 'after-install.tpl'), 'utf8')).toMatch(/apparmor_parser --replace .*"\$APPARMOR_PROFILE_TARGET"/);
  });
});

describe('the release workflow (.github/workflows/release.yml)', () => {
  type Step = { run?: string; uses?: string; name?: string; if?: string };
  const workflow = yaml.load(readFileSync(join(root, '.github', 'workflows', 'release.yml'), 'utf8')) as {
    name: string;
    on: Record<string, unknown>;
    jobs: Record<string, { 'runs-on': string; steps: Step[]; needs?: string; strategy?: { matrix: { include: { os: string }[] } } }>;
  };

  test('parses, with the keys GitHub requires: name, on, jobs with runs-on and steps that each run or use', () => {
    expect(workflow.name).toBe('release');
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push']));
    for (const [id, job] of Object.entries(workflow.jobs)) {
      expect(typeof job['runs-on'], id).toBe('string');
      expect(job.steps.length, id).toBeGreaterThan(0);
      for (const step of job.steps) expect(Boolean(step.run) !== Boolean(step.uses), `${id}: ${JSON.stringify(step)}`).toBe(true);
    }
  });

  test('builds on Linux, macOS and Windows: npm test, the installers, the smoke test, the update files; then publishes', () => {
    const build = workflow.jobs.build;
    expect(build.strategy!.matrix.include.map((m) => m.os.split('-')[0])).toEqual(['ubuntu', 'macos', 'windows']);
    const runs = build.steps.map((s) => s.run ?? '').join('\n');
    expect(runs).toContain('npm test');
    expect(runs).toContain('electron-builder ${{ matrix.package }} --publish never');
    expect(runs).toContain('tests/desktop/electronSmoke.test.ts');
    expect(runs).toContain('npm run package:check -- --packed dist');
    expect(runs).toContain('${{ matrix.updateFiles }}');
    expect(workflow.jobs.publish.needs).toBe('build');
  });
});
