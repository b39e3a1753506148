// Debian's Chromium driven by playwright-core (no downloaded browsers). A
// missing /usr/bin/chromium is a test failure with instructions, never a skip.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.OUTPOST_E2E_CHROMIUM ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `e2e: Chromium not found at ${CHROMIUM}. Install it with \`apt-get update && apt-get install -y chromium\` ` +
        '(the e2e tests drive the real renderer in a browser; they are not skipped).',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
