// The desktop status light (issue #30 item 6), in Chromium: the built renderer
// runs as in the desktop app, with a `window.outpost` bridge (what the preload
// exposes) whose calls go, as main forwards them, to the real engine host in a
// real child process (the built host, supervised as the desktop app does), and
// whose events are that supervisor's. The host stops answering (its event loop
// blocked while a view waits for it): the sidebar's light goes out and one
// message stands for the view's failed call; the supervisor replaces the host,
// and the window recovers by itself: the light, the view's data, no error left.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { BridgeEvent } from '../../src-shared/bridge';
import { listen } from '../../src-main/http/server';
import { startTestHost, type TestHost } from '../support/engineHost';
import { launchChromium, screenshot } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';

const TIMEOUT = 20_000;
/** The new host starts this long after the old one is found stuck: time to look at the window meanwhile. */
const RESTART_DELAY_MS = 4_000;
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

let host: TestHost;
let files: Server;
let browser: Browser;
let page: Page | undefined;
const pageErrors: string[] = [];

/** Main's side of the bridge: what it publishes to the window (engine-status from the supervisor's states, host events). */
function publish(event: BridgeEvent): void {
  void page?.evaluate((e) => (window as unknown as { __outpostEmit?: (e: unknown) => void }).__outpostEmit?.(e), event).catch(() => {});
}

/** The built renderer as static files (the desktop app loads them through its app:// protocol). */
async function serveRenderer(dir: string): Promise<string> {
  files = createServer((req, res) => {
    const path = normalize(new URL(req.url ?? '/', 'http://x').pathname).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path === '/' ? 'index.html' : path);
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  return await listen(files, 0, '127.0.0.1');
}

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  host = await startTestHost({
    runner: 'built-blockable',
    init: { seedDemoData: true },
    restartDelayMs: () => RESTART_DELAY_MS,
    onEvent: (event) => publish(event),
    onStateChange: (state, detail) => publish({ type: 'engine-status', state, detail }),
  });
  const url = await serveRenderer(staticDir);
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.exposeFunction('__outpostInvoke', (operation: string, request: unknown) => host.supervisor.forward(operation, request));
  await context.addInitScript(() => {
    const listeners = new Set<(event: unknown) => void>();
    const w = window as unknown as Record<string, unknown>;
    w.__outpostEmit = (event: unknown) => listeners.forEach((l) => l(event));
    w.outpost = {
      invoke: (operation: string, request?: unknown) =>
        (w.__outpostInvoke as (o: string, r: unknown) => Promise<unknown>)(operation, request ?? {}),
      onEvent: (listener: (event: unknown) => void) => (listeners.add(listener), () => listeners.delete(listener)),
      profiles: {
        current: async () => ({ kind: 'real', dataDir: '' }),
        open: async () => {
          throw new Error('no profile switch in this test');
        },
      },
    };
  });
  page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  // As openAppPage counts them: uncaught exceptions and console errors (a failed call's 4xx is no page error).
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) pageErrors.push(m.text());
  });
  await page.goto(url);
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await new Promise<void>((r) => (files ? files.close(() => r()) : r()));
});

const light = () => page!.getByTestId('engine-light').getAttribute('class');
const banner = () => page!.getByTestId('engine-status');

test('the engine host stops answering: the light goes out and one message stands for the errors; it recovers by itself', async () => {
  const p = page!;
  await p.locator('.row[data-annotation-id]').first().waitFor();
  expect(await p.locator('nav .status').textContent()).toContain('Local database');
  expect(await light()).not.toContain('down');
  expect(await banner().count()).toBe(0);

  // The host hangs while the Policies view waits for it: the supervisor finds it stuck, kills it and restarts it later.
  host.processes.at(-1)!.postMessage({ kind: 'test-block-event-loop' } as never);
  await p.locator('nav a[href="#/policies"]').click();
  await expect.poll(light, { timeout: TIMEOUT }).toContain('down');
  await expect.poll(() => banner().textContent(), { timeout: TIMEOUT }).toContain('The local engine stopped and is restarting');
  // The view's call failed (UNAVAILABLE): its error is there, but the one message stands for it.
  await expect.poll(() => p.locator('main .error[role=alert]').count(), { timeout: TIMEOUT }).toBeGreaterThan(0);
  expect(await p.locator('main .error[role=alert]:visible').count()).toBe(0);
  expect(await banner().count()).toBe(1);
  expect(host.states.at(-1)?.state).toBe('restarting');
  await screenshot(p, '46-desktop-engine-down');

  // The new host: the light comes back, the view reads again and shows its policies, no error left, no click.
  await expect.poll(light, { timeout: TIMEOUT }).not.toContain('down');
  await expect.poll(() => p.locator('main .error[role=alert]').count(), { timeout: TIMEOUT }).toBe(0);
  await expect.poll(() => banner().textContent(), { timeout: TIMEOUT }).toContain('The local engine was restarted');
  expect(host.processes).toHaveLength(2);
  const listed = await host.supervisor.call('ListPolicies', {});
  const names = listed.ok ? (listed.data as { policies: { name: string }[] }).policies.map((x) => x.name) : [];
  expect(names.length).toBeGreaterThan(0);
  await p.getByText(names[0], { exact: true }).first().waitFor();
  await screenshot(p, '47-desktop-engine-back');
  expect(pageErrors).toEqual([]);
});
