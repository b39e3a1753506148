// The Sync view and the records made before the first link, in Chromium: a
// fresh `outpost serve` (background sync) used offline, then connected to a
// second real server from the UI. The view then says what was left in the
// profile's own organization (never hidden), "Send" queues the adoptable ones,
// lists the one that stays with its reason, and "Sync now" delivers them.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium, navigateTo, openAppPage, screenshot, closeAll } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 15_000;
let remote: E2eServer;
let local: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  remote = await startE2eServer(staticDir, { annotations: 3 });
  local = await startE2eServer(staticDir, { seed: false, backgroundSync: true });
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, local.appUrl, TIMEOUT));
});
afterAll(() => closeAll(browser, local, remote));

const range = { startTime: '2026-10-01T08:00:00Z', endTime: '2026-10-01T08:05:00Z' };

test('after connecting, the Sync view shows what was made before the link and sends it', async () => {
  // Offline days: an asset the platform also has (by name), one only this bench has.
  const rig = (await remote.client.ListAssets({ pageSize: 1 })).assets[0].name;
  await local.client.CreateAsset({ name: rig });
  await local.client.CreateAsset({ name: 'Bench-Only-Rig' });
  await local.client.CreateAnnotation({ name: 'Offline: gearbox whine', assets: [rig], tags: ['field'], ...range });
  await local.client.CreateAnnotation({ name: 'Offline: bench only', assets: ['Bench-Only-Rig'], ...range });

  await navigateTo(page, 'sync', TIMEOUT);
  expect(await page.getByTestId('prelink').count()).toBe(0); // not linked: they are simply this profile's
  await page.fill('#sync-url', remote.url);
  await page.fill('#sync-key', remote.token);
  await page.click('button[type=submit]:has-text("Connect")');
  // Before linking, the check says what will stay here; keeping them links without sending them.
  await expect.poll(() => page.getByTestId('stays-local-total').textContent(), { timeout: TIMEOUT }).toBe('2 records');
  await page.getByRole('button', { name: 'Link and keep them here' }).click();
  await expect.poll(() => page.locator('#sync-state').textContent(), { timeout: TIMEOUT }).toMatch(/^Synced /);

  const card = page.getByTestId('prelink');
  await card.waitFor();
  await expect.poll(() => page.getByTestId('prelink-total').textContent(), { timeout: TIMEOUT }).toBe('2 records');
  expect(await card.textContent()).toContain('2 annotations');
  const send = card.getByRole('button', { name: /^Send 2 records to / });
  await send.waitFor();
  await screenshot(page, '40-sync-prelink');
  expect((await remote.client.ListAnnotations({ filter: 'name == "Offline: gearbox whine"' })).annotations).toEqual([]);

  await send.click();
  await expect
    .poll(() => page.getByTestId('prelink-result').textContent(), { timeout: TIMEOUT })
    .toContain('Queued 1 annotation as offline creates');
  const left = card.getByRole('list', { name: 'Left here' });
  expect(await left.textContent()).toContain("Offline: bench only: its asset 'Bench-Only-Rig' has no namesake in the remote organization");
  expect(await page.getByTestId('prelink-total').textContent()).toBe('1 record');
  // What stays is still offered (adopting again retries it once the platform has its asset).
  await card.getByRole('button', { name: /^Try again: send 1 record to / }).waitFor();
  await screenshot(page, '41-sync-prelink-sent');

  await page.locator('button:has-text("Sync now"):not([disabled])').click();
  await expect
    .poll(async () => (await remote.client.ListAnnotations({ filter: 'name == "Offline: gearbox whine"' })).annotations.length, {
      timeout: TIMEOUT,
    })
    .toBe(1);
  const [sent] = (await remote.client.ListAnnotations({ filter: 'name == "Offline: gearbox whine"' })).annotations;
  expect(sent.tags).toEqual(['field']);
  expect(sent.createdByUserId).toBe((await remote.client.GetMe({})).userId);
  expect(pageErrors).toEqual([]);
});
