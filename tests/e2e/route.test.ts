// The address keeps the reviewer's place, in Chromium against `outpost
// serve` on the demo data: the applied filter, the sort, the Archived chip and
// the open annotation are in the URL, survive a reload, and back/forward step
// through the queries and views (a new query is a history entry; moving the
// open record along the list is not). Saved searches are chips beside the
// list, one click away.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, navigateTo, openAppPage, screenshot, closeAll } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 10_000;
const FLAGGED = 'state == ANNOTATION_STATE_FLAGGED';
const RESOLVED = 'state == ANNOTATION_STATE_RESOLVED';

let server: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];

const hashParams = () => new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '');
const listedStates = () =>
  page.locator('.row [data-state]').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-state')))].sort());
const appliedFilter = () => page.getByTestId('annotation-list').locator('..').getAttribute('data-applied-filter');

async function applyFilter(filter: string) {
  await page.fill('#annotation-filter', filter);
  await page.press('#annotation-filter', 'Enter');
  await expect.poll(appliedFilter, { timeout: TIMEOUT }).toBe(filter);
}

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  server = await startE2eServer(staticDir, { annotations: 150 });
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, server.appUrl, TIMEOUT));
  await page.locator('.row').first().waitFor();
});

afterAll(() => closeAll(browser, server));

describe('the address keeps the place (outpost serve)', () => {
  test('filter, sort and the open annotation are in the URL and survive a reload', async () => {
    await applyFilter(FLAGGED);
    await page.selectOption('#annotation-sort', 'name');
    await expect.poll(() => hashParams().get('order'), { timeout: TIMEOUT }).toBe('name');
    expect(hashParams().get('q')).toBe(FLAGGED);
    const second = page.locator('.row').nth(1);
    const id = await second.getAttribute('data-annotation-id');
    const name = await second.locator('.name').textContent();
    await second.click();
    await expect.poll(() => hashParams().get('open'), { timeout: TIMEOUT }).toBe(id);

    await page.reload();
    await page.locator('.row').first().waitFor();
    expect(await page.inputValue('#annotation-filter')).toBe(FLAGGED);
    expect(await page.inputValue('#annotation-sort')).toBe('name');
    await expect.poll(appliedFilter, { timeout: TIMEOUT }).toBe(FLAGGED);
    expect(await listedStates()).toEqual(['ANNOTATION_STATE_FLAGGED']);
    await expect.poll(() => page.getByTestId('detail-name').textContent(), { timeout: TIMEOUT }).toBe(name);
    // The cursor is on the open record's row, so j/k go on from there.
    await expect.poll(() => page.locator('.row.cursor').getAttribute('data-annotation-id'), { timeout: TIMEOUT }).toBe(id);
    await screenshot(page, '81-route-after-reload');
  });

  test('j/k move the open record without history entries; back and forward step through queries and views', async () => {
    await page.getByTestId('annotation-list').focus();
    const length = await page.evaluate(() => history.length);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect
      .poll(() => hashParams().get('open'), { timeout: TIMEOUT })
      .toBe(await page.locator('.row.cursor').getAttribute('data-annotation-id'));
    expect(await page.evaluate(() => history.length)).toBe(length);

    await applyFilter(RESOLVED);
    expect(hashParams().get('q')).toBe(RESOLVED);
    await navigateTo(page, 'policies', TIMEOUT);

    await page.goBack();
    await page.locator('.row').first().waitFor();
    await expect.poll(appliedFilter, { timeout: TIMEOUT }).toBe(RESOLVED);
    await page.goBack();
    await expect.poll(appliedFilter, { timeout: TIMEOUT }).toBe(FLAGGED);
    expect(await page.inputValue('#annotation-filter')).toBe(FLAGGED);
    expect(await listedStates()).toEqual(['ANNOTATION_STATE_FLAGGED']);
    await page.goForward();
    await expect.poll(appliedFilter, { timeout: TIMEOUT }).toBe(RESOLVED);
    expect(await page.inputValue('#annotation-filter')).toBe(RESOLVED);
    expect(await listedStates()).toEqual(['ANNOTATION_STATE_RESOLVED']);
    await page.goForward();
    await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain('#/policies');
    await page.locator('nav a[aria-current="page"]', { hasText: 'Policies' }).waitFor();
  });

  test('the Archived chip is in the URL; a saved search is a chip beside the list, one click away', async () => {
    await navigateTo(page, 'annotations', TIMEOUT);
    await page.getByTestId('archived-chip').click();
    await expect.poll(() => hashParams().get('archived'), { timeout: TIMEOUT }).toBe('1');
    await page.getByTestId('archived-chip').click();
    await expect.poll(() => hashParams().get('archived'), { timeout: TIMEOUT }).toBeNull();

    await server.client.CreateSavedSearch({
      name: 'Flagged by start',
      properties: { overviewMode: 'ANNOTATIONS', searchTerm: FLAGGED, orderBy: 'start_time' },
    });
    const chip = page.getByTestId('saved-search-chips').getByRole('button', { name: 'Flagged by start' });
    await chip.waitFor();
    await chip.click();
    await expect.poll(appliedFilter, { timeout: TIMEOUT }).toBe(FLAGGED);
    expect(await page.inputValue('#annotation-sort')).toBe('start_time');
    expect(await chip.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => hashParams().get('order'), { timeout: TIMEOUT }).toBe('start_time');
    await screenshot(page, '82-route-saved-search-chip');
  });

  test('no errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
