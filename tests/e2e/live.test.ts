// Live views in Chromium against a real `outpost serve` (issue #30 item 2):
// with Annotations, Policies and Test reports open in turn, a record changed
// over the API (another caller's write) shows its new value, marked changed,
// within 2 s, with the list's scroll position and the selection kept, and a
// policy's half-typed text left as the user typed it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, openAppPage, navigateTo, screenshot, closeAll } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 10_000;
/** The bound: a change elsewhere shows within 2 s. */
const LIVE_MS = 2_000;

let server: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];

const goTo = (view: string) => navigateTo(page, view, TIMEOUT);

/** The scroll offset of the element that scrolls `selector`'s list (its nearest scrolling ancestor, or itself). */
const scrollOf = (selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      for (let e: Element | null = el; e; e = e.parentElement)
        if (e.scrollHeight > e.clientHeight + 1 && e.scrollTop > 0) return e.scrollTop;
      return 0;
    });

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  server = await startE2eServer(staticDir, { annotations: 600 });
  for (let i = 0; i < 60; i++) {
    await server.client.CreateTestReport({
      status: 'TEST_STATUS_PASSED',
      name: `Report ${String(i).padStart(2, '0')}`,
      testSystemName: 'bench',
      testCase: 'leak check',
      startTime: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      endTime: new Date(Date.UTC(2026, 0, 1, 0, i, 30)).toISOString(),
    });
  }
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, server.appUrl, TIMEOUT));
  await page.locator('.row').first().waitFor();
});

afterAll(() => closeAll(browser, server));

describe('live views (outpost serve)', () => {
  test('Annotations: a row changed over the API shows its new name, marked, within 2 s; scroll and the open detail stay', async () => {
    const list = page.getByTestId('annotation-list');
    await list.evaluate((el) => (el.scrollTop = 2400));
    await expect.poll(() => page.locator('.row').count()).toBeGreaterThan(5);
    const row = page.locator('.row').nth(4);
    const id = (await row.getAttribute('data-annotation-id'))!;
    await row.click();
    await expect.poll(() => row.getAttribute('aria-current')).toBe('true');
    const scrolled = await list.evaluate((el) => el.scrollTop);
    expect(scrolled).toBeGreaterThan(1000);

    await server.client.UpdateAnnotation({ annotation: { annotationId: id, name: 'Renamed over the API' }, updateMask: 'name' });
    const updated = page.locator(`#row-${id}`);
    await expect.poll(() => updated.locator('.name').textContent(), { timeout: LIVE_MS }).toBe('Renamed over the API');
    expect(await updated.getAttribute('data-changed')).toBe('true');
    expect(await list.evaluate((el) => el.scrollTop)).toBe(scrolled);
    expect(await updated.getAttribute('aria-current')).toBe('true');
    // The open detail shows the new name too.
    await expect
      .poll(() => page.locator('aside[aria-label="Annotation detail"]').textContent(), { timeout: LIVE_MS })
      .toContain('Renamed over the API');
    await screenshot(page, '40-live-annotations');
  });

  test('Policies: a policy renamed over the API shows, marked, within 2 s; the text being typed is kept', async () => {
    await goTo('policies');
    const first = page.locator('.pane-item').first();
    await first.click();
    await expect.poll(() => first.getAttribute('aria-current')).toBe('true');
    const typed = '// half-typed, not saved\n';
    await page.locator('#cedar-editor').press('Home');
    await page.locator('#cedar-editor').pressSequentially(typed.slice(0, 12));
    const draft = await page.inputValue('#cedar-editor');
    const { policies } = await server.client.ListPolicies({});
    const policy = policies[0];
    await server.client.UpdatePolicy({ policy: { policyId: policy.policyId, name: 'Renamed elsewhere' }, updateMask: 'name' });
    const row = page.locator('li', { has: page.locator('.pane-item .name', { hasText: 'Renamed elsewhere' }) });
    await row.waitFor({ timeout: LIVE_MS });
    expect(await row.getAttribute('data-changed')).toBe('true');
    expect(await row.locator('.pane-item').getAttribute('aria-current')).toBe('true');
    expect(await page.inputValue('#cedar-editor')).toBe(draft);
    await screenshot(page, '41-live-policies');
  });

  test('Test reports: a report renamed over the API shows, marked, within 2 s; scroll and selection stay', async () => {
    await goTo('test-reports');
    await page.locator('.pane-item').nth(40).scrollIntoViewIfNeeded();
    const target = page.locator('.pane-item').nth(40);
    const name = (await target.locator('.name').textContent())!;
    await target.click();
    await expect.poll(() => target.getAttribute('aria-current')).toBe('true');
    const scrolled = await scrollOf('.pane-item');
    expect(scrolled).toBeGreaterThan(0);
    const { testReports } = await server.client.ListTestReports({ filter: `name == "${name}"` });
    await server.client.UpdateTestReport({
      testReport: { testReportId: testReports[0].testReportId, name: `${name} (renamed)` },
      updateMask: 'name',
    });
    const row = page.locator('li', { has: page.locator('.pane-item .name', { hasText: `${name} (renamed)` }) });
    await row.waitFor({ timeout: LIVE_MS });
    expect(await row.getAttribute('data-changed')).toBe('true');
    expect(await row.locator('.pane-item').getAttribute('aria-current')).toBe('true');
    expect(await scrollOf('.pane-item')).toBe(scrolled);
    await screenshot(page, '42-live-test-reports');
    expect(pageErrors).toEqual([]);
  });
});
