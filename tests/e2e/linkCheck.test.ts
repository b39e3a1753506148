// Linking is checked before it is saved (issue #30 item 4), in Chromium: a
// fresh `outpost serve` with a record made offline, and a second real server
// as the remote. A URL where nothing answers and a refused key are each said
// in words (which step failed), with no "Saved" and nothing stored; the right
// key shows whose it is and how many records made here would stay local, and
// "Link and send them" links, and the engine sends them with its first sync.
import { createServer } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { listen } from '../../src-main/http/server';
import { violationsLightAndDark } from './support/axe';
import { launchChromium, navigateTo, openAppPage, screenshot, closeAll } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 15_000;
let remote: E2eServer;
let local: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];
let nothingThere: string;

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  remote = await startE2eServer(staticDir, { annotations: 3 });
  local = await startE2eServer(staticDir, { seed: false, backgroundSync: true });
  const closed = createServer();
  nothingThere = await listen(closed, 0, '127.0.0.1');
  await new Promise<void>((r) => closed.close(() => r()));
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, local.appUrl, TIMEOUT));
});
afterAll(() => closeAll(browser, local, remote));

const range = { startTime: '2026-10-01T08:00:00Z', endTime: '2026-10-01T08:05:00Z' };
const formError = () => page.locator('.remote [data-testid="error-sentence"]');

async function connect(url: string, key: string) {
  await page.fill('#sync-url', url);
  await page.fill('#sync-key', key);
  await page.click('button[type=submit]:has-text("Connect")');
}

/** Nothing of a link was stored, and the page says nothing was saved. */
async function expectNotLinked() {
  expect((await local.client.GetSyncRemote({})).remote).toBeNull();
  expect((await local.client.GetSyncStatus({})).replica).toBe(false);
  expect(await page.getByText('Saved. A sync with').count()).toBe(0);
  expect(await page.locator('#sync-state').textContent()).toBe('Not linked');
}

test('a wrong address and a wrong key are each said in words, and nothing is saved', async () => {
  const rig = (await remote.client.ListAssets({ pageSize: 1 })).assets[0].name;
  await local.client.CreateAsset({ name: rig });
  await local.client.CreateAnnotation({ name: 'Offline: bearing noise', assets: [rig], ...range });
  await navigateTo(page, 'sync', TIMEOUT);

  await connect(nothingThere, remote.token);
  await expect
    .poll(() => formError().textContent(), { timeout: TIMEOUT })
    .toBe(
      'Not linked: nothing answered at that address as an Outpost or Sift server. Check the URL, and that the server is running and reachable from here.',
    );
  await expectNotLinked();

  await connect(remote.url, 'op_not_the_key');
  await expect
    .poll(() => formError().textContent(), { timeout: TIMEOUT })
    .toBe('Not linked: the server answered, but refused the API key. Check the key (it may have been revoked).');
  await expectNotLinked();
  // The sentence is in words; the port and the server's message are behind "Details".
  expect(await formError().textContent()).not.toContain(remote.url);
  await screenshot(page, '44-link-key-refused');
  expect(await violationsLightAndDark(page, 'link key refused', '76-a11y-link-key-refused')).toEqual([]);
});

test('the right key: whose it is, what stays local, and "Link and send them" sends them with the first sync', async () => {
  await connect(remote.url, remote.token);
  const stays = page.getByTestId('stays-local');
  await stays.waitFor();
  const me = await remote.client.GetMe({});
  expect(await stays.textContent()).toContain(me.userEmail);
  expect(await page.getByTestId('stays-local-total').textContent()).toBe('1 record');
  expect(await stays.textContent()).toContain('1 annotation');
  await stays.getByRole('button', { name: 'Link and keep them here' }).waitFor();
  expect(await formError().count()).toBe(0);
  // Not linked yet: the choice comes first.
  expect((await local.client.GetSyncRemote({})).remote).toBeNull();
  await screenshot(page, '45-link-stays-local');
  expect(await violationsLightAndDark(page, 'link stays local', '75-a11y-link-stays-local')).toEqual([]);

  await stays.getByRole('button', { name: 'Link and send them' }).click();
  await page.getByText(`Saved. A sync with ${remote.url} has started. You work there as ${me.userEmail}`).waitFor();
  await expect
    .poll(async () => (await remote.client.ListAnnotations({ filter: 'name == "Offline: bearing noise"' })).annotations.length, {
      timeout: TIMEOUT,
    })
    .toBe(1);
  // The engine held the choice and its first run sent them; once it has run, nothing waits any more.
  await page.getByTestId('adoption-pending').waitFor({ state: 'detached', timeout: TIMEOUT });
  const [sent] = (await remote.client.ListAnnotations({ filter: 'name == "Offline: bearing noise"' })).annotations;
  expect(sent.createdByUserId).toBe(me.userId);
  expect(pageErrors).toEqual([]);
});
