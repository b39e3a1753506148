// A packaged Outpost never runs without Chromium's sandbox. electron-builder's
// AppImage launcher (AppRun) probes user namespaces with `unshare -Ur true` and,
// where they are restricted (Ubuntu 23.10 and later, by AppArmor), silently adds
// `--no-sandbox`: the window would run unsandboxed with no word to the user.
// Main checks the switch before it starts anything and, instead, says what to do.
import { readFileSync } from 'node:fs';

export interface LaunchFacts {
  isPackaged: boolean;
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  /** `/proc/sys/kernel/apparmor_restrict_unprivileged_userns`, if the system has it. */
  userNamespacesRestricted: () => boolean;
}

export const SANDBOX_REFUSAL_TITLE = 'Outpost cannot start without its sandbox';

/** Ubuntu's switch (1: unprivileged user namespaces are restricted by AppArmor). */
export function appArmorRestrictsUserNamespaces(path = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns'): boolean {
  try {
    return readFileSync(path, 'utf8').trim() === '1';
  } catch {
    return false;
  }
}

/** The sentences to show instead of starting, or undefined when the app may start. */
export function sandboxRefusal(facts: LaunchFacts): string | undefined {
  // From the sources (`npm start`, the smoke test) the developer decides; packaged, the sandbox is not optional.
  if (!facts.isPackaged || !facts.argv.includes('--no-sandbox')) return undefined;
  const appImage = facts.env.APPIMAGE;
  if (!appImage) {
    return [
      'Outpost was started with --no-sandbox. It does not run without Chromium\u2019s sandbox, which keeps the',
      'window away from your files. Start it without --no-sandbox (from the launcher, or `outpost` in a terminal).',
    ].join('\n');
  }
  const why = facts.userNamespacesRestricted()
    ? 'This system restricts unprivileged user namespaces with AppArmor (Ubuntu 23.10 and later do), so the AppImage cannot start Chromium\u2019s sandbox, which keeps the window away from your files.'
    : 'This system does not let the AppImage create the user namespaces Chromium\u2019s sandbox needs, which keeps the window away from your files.';
  return [
    why,
    '',
    'Do one of these instead:',
    '\u2022 Install the .deb (recommended; it brings the AppArmor profile the sandbox needs):',
    '    sudo apt install ./outpost_<version>_amd64.deb',
    '  then start Outpost from the launcher.',
    '\u2022 Or, if this machine\u2019s administrator agrees to allow user namespaces for every program (it lowers this',
    '  system\u2019s protection):',
    '    sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
    `  then start ${appImage} again.`,
    '',
    'Your data is untouched.',
  ].join('\n');
}
