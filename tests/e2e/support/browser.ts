// Debian's Chromium driven by playwright-core (no downloaded browsers). A
// missing /usr/bin/chromium is a test failure with instructions, never a skip.
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';

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
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Where e2e screenshots go (OUTPOST_E2E_SHOTS, else a temp folder); look at them after a run. */
export const SHOTS = process.env.OUTPOST_E2E_SHOTS ?? join(tmpdir(), 'outpost-e2e-shots');

/** A window: its size in CSS px and how many device pixels make one (1.5 = a laptop at 150% scaling). */
export interface WindowSize {
  readonly width: number;
  readonly height: number;
  readonly deviceScaleFactor?: number;
}

/**
 * A page of the app at `url` (a desktop-sized window unless `size` says otherwise) and the errors it reports:
 * uncaught exceptions and console errors. Chromium logs every 4xx response as "Failed to load resource" (tests
 * provoke some on purpose), so those are not counted; anything else is a bug the test should fail on.
 */
export async function openAppPage(
  browser: Browser,
  url: string,
  timeoutMs: number,
  size: WindowSize = { width: 1440, height: 900 },
): Promise<{ page: Page; pageErrors: string[] }> {
  mkdirSync(SHOTS, { recursive: true });
  const page = await browser.newPage({
    viewport: { width: size.width, height: size.height },
    deviceScaleFactor: size.deviceScaleFactor ?? 1,
  });
  page.setDefaultTimeout(timeoutMs);
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) pageErrors.push(m.text());
  });
  await page.goto(url);
  return { page, pageErrors };
}

/** Saves a screenshot of the page as SHOTS/<name>.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Follows the navigation link of a view and waits until the address says so. */
export async function navigateTo(page: Page, view: string, timeoutMs: number): Promise<void> {
  await page.click(`nav a[href="#/${view}"]`);
  await expect.poll(() => page.url(), { timeout: timeoutMs }).toContain(`#/${view}`);
}

/**
 * Closes what a test file opened, in order (the browser before the servers it talks to), each given 20 s: a close
 * still pending then is reported on stderr and left behind (vitest ends the worker), so one hung close neither
 * fails a file whose tests passed nor keeps the rest open. (Once, a server's close waited on a browser's
 * preconnected socket that never spoke: src-main/grpc/onePort.ts now ends those.)
 */
export async function closeAll(...parts: ({ close(): Promise<unknown> } | undefined)[]): Promise<void> {
  for (const part of parts) {
    if (!part) continue;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 20_000)));
    const outcome = await Promise.race([part.close().then(() => 'closed' as const), late]).finally(() => clearTimeout(timer));
    if (outcome === 'late') console.warn(`e2e: closing ${part.constructor.name} took over 20 s; left to the worker's exit`);
  }
}
