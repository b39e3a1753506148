// The desktop app's packaging (issue #16): electron-builder.yml loaded and
// validated by electron-builder's own loader and JSON schema, with what a field
// laptop relies on spelled out: installers per platform, native and wasm
// modules unpacked from the asar, Electron's fuses set.
import { DebugLogger } from 'builder-util';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');

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
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual([{ target: 'dmg', arch: ['x64', 'arm64'] }]);
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
