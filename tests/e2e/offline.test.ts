// Offline is calm (issue #30 item 3), in Chromium against two real `outpost
// serve` engines: the remote stops answering while an edit waits here; the
// Sync view and the badge say "Offline" with the count of queued edits, no
// "Error", no URL, port or errno. The remote starts again on the same port and
// the queued edit reaches it within 10 s, with no click.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, openAppPage, navigateTo, screenshot, closeAll } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 15_000;
/** The bound for a queued edit once the remote is back. */
const BACK_ONLINE_MS = 10_000;

let remote: E2eServer;
let local: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  remote = await startE2eServer(staticDir, { annotations: 12 });
  local = await startE2eServer(staticDir, { seed: false, backgroundSync: true, afterEditMs: 300 });
  await local.client.ConfigureSyncRemote({ baseUrl: remote.url, apiKey: remote.token });
  const end = Date.now() + TIMEOUT;
  while ((await local.client.GetSyncStatus({})).lastSuccessDate === null) {
    if (Date.now() > end) throw new Error('the first sync did not finish');
    await new Promise((r) => setTimeout(r, 50));
  }
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, local.appUrl, TIMEOUT));
});

afterAll(() => closeAll(browser, local, remote));

describe('offline (outpost serve with a remote)', () => {
  test('the remote stopped: "Offline" with the queued edit, no error; started again: the edit goes within 10 s, no click', async () => {
    await navigateTo(page, 'sync', TIMEOUT);
    const { annotations } = await local.client.ListAnnotations({ pageSize: 1 });
    const id = annotations[0].annotationId;
    await remote.stopListening();
    await local.client.UpdateAnnotation({ annotation: { annotationId: id, name: 'Edited while offline' }, updateMask: 'name' });

    await expect
      .poll(() => page.locator('#sync-state').textContent(), { timeout: TIMEOUT })
      .toBe('Offline: 1 edit saved here; will send when connected');
    await expect.poll(() => page.locator('nav .badge').textContent(), { timeout: TIMEOUT }).toBe('Offline');
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/error/i);
    // The remote's address shows where it is configured (the form, the status's Remote line), never in a message.
    expect(text).not.toMatch(/ECONNREFUSED|errno|fetch failed|socket|\/api\/v1/i);
    expect(text.split(remote.url).length - 1).toBe(1); // the status's Remote line only
    await screenshot(page, '43-offline');

    await remote.listenAgain();
    const back = Date.now();
    await expect
      .poll(async () => (await remote.client.GetAnnotation({ annotationId: id })).annotation.name, { timeout: BACK_ONLINE_MS })
      .toBe('Edited while offline');
    expect(Date.now() - back).toBeLessThan(BACK_ONLINE_MS);
    await expect.poll(() => page.locator('#sync-state').textContent(), { timeout: TIMEOUT }).toMatch(/^Synced /);
    expect(pageErrors).toEqual([]);
  });

  test('outpost serve itself stopped: the light goes out and one message stands for the errors; it recovers by itself', async () => {
    await navigateTo(page, 'annotations', TIMEOUT);
    expect(await page.getByTestId('engine-light').getAttribute('class')).not.toContain('down');
    await local.stopListening();
    await expect.poll(() => page.getByTestId('engine-light').getAttribute('class'), { timeout: TIMEOUT }).toContain('down');
    await page.locator('nav a[href="#/policies"]').click(); // a view whose calls now fail
    await expect
      .poll(() => page.getByTestId('engine-status').textContent(), { timeout: TIMEOUT })
      .toContain('outpost serve does not answer');
    expect(await page.locator('main .error[role=alert]:visible').count()).toBe(0);
    await screenshot(page, '44-serve-down');
    await local.listenAgain();
    await expect.poll(() => page.getByTestId('engine-light').getAttribute('class'), { timeout: TIMEOUT }).not.toContain('down');
    await expect.poll(() => page.getByTestId('engine-status').count(), { timeout: TIMEOUT }).toBe(0);
    // The view whose calls failed meanwhile read again by itself: no error is left behind the message.
    await expect.poll(() => page.locator('main .error[role=alert]').count(), { timeout: TIMEOUT }).toBe(0);
  });
});
