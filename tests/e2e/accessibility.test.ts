// Accessibility of the states a reviewer passes through, in Chromium against
// `outpost serve` on the demo data, each in the light and the dark color
// scheme (prefers-color-scheme): the create-annotation dialog (empty and with
// the engine's association error), the selection's batch bar with its assign
// and tag dialogs and the toast of a batch, the CEL filter's error, a refused
// test-report import, the `?` shortcuts overlay, the rules view with a rule
// open and a rejected rule filter, and the sync view with a refused remote URL.
// axe-core (WCAG 2.0/2.1 A and AA) must find no serious or critical violation
// in any of them; a screenshot of every state is saved in both schemes.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { violationsLightAndDark } from './support/axe';
import { launchChromium, navigateTo, openAppPage, closeAll } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 10_000;

let server: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];

const press = (...keys: string[]) => keys.reduce((p, k) => p.then(() => page.keyboard.press(k)), Promise.resolve());
const activeId = () => page.evaluate(() => document.activeElement?.id);

const inBothSchemes = (state: string, shot: string) => violationsLightAndDark(page, state, shot);

async function toAnnotationList() {
  await navigateTo(page, 'annotations', TIMEOUT);
  await page.locator('.row').first().waitFor();
  await page.getByTestId('annotation-list').focus();
}

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  server = await startE2eServer(staticDir, { annotations: 120 });
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, server.appUrl, TIMEOUT));
  await page.locator('.row').first().waitFor();
});

afterAll(() => closeAll(browser, server));

describe('accessibility, light and dark (axe-core, outpost serve)', () => {
  test('the color scheme follows prefers-color-scheme', async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await background();
    await page.emulateMedia({ colorScheme: 'light' });
    expect(light).toBe('rgb(245, 246, 248)');
    expect(dark).toBe('rgb(20, 23, 27)');
  });

  test('the create-annotation dialog, empty and with its association problem', async () => {
    await toAnnotationList();
    await press('n');
    await page.getByTestId('create-annotation').waitFor();
    expect(await activeId()).toBe('new-name');
    const found = await inBothSchemes('create dialog', '60-a11y-create');
    await page.keyboard.type('Accessible annotation');
    await press('Control+Enter');
    await page.getByTestId('association-error').waitFor();
    found.push(...(await inBothSchemes('create dialog refused', '61-a11y-create-refused')));
    await press('Escape');
    await page.getByTestId('create-annotation').waitFor({ state: 'detached' });
    expect(found).toEqual([]);
  });

  test('the batch bar, the batch assign and tag dialogs, and the toast of a batch', async () => {
    await toAnnotationList();
    await press('j', 'x', 'Shift+J', 'Shift+J');
    await expect.poll(() => page.getByTestId('selection-count').textContent(), { timeout: TIMEOUT }).toBe('3 selected');
    const found = await inBothSchemes('batch bar', '62-a11y-batch-bar');
    await press('a');
    await expect.poll(activeId, { timeout: TIMEOUT }).toBe('assign-query');
    await page.keyboard.type('a');
    found.push(...(await inBothSchemes('batch assign dialog', '63-a11y-batch-assign')));
    await press('Escape');
    await expect.poll(activeId, { timeout: TIMEOUT }).not.toBe('assign-query');
    await page.getByTestId('annotation-list').focus();
    await press('t');
    await expect.poll(activeId, { timeout: TIMEOUT }).toBe('batch-tag');
    found.push(...(await inBothSchemes('batch tag dialog', '64-a11y-batch-tags')));
    await page.keyboard.type('a11y-checked');
    await press('Enter');
    await expect.poll(() => page.getByTestId('batch-toast').textContent(), { timeout: TIMEOUT }).toContain('Tagged 3 annotations');
    found.push(...(await inBothSchemes('batch toast', '65-a11y-batch-toast')));
    await page.getByTestId('annotation-list').focus();
    await press('z');
    await expect.poll(() => page.getByTestId('batch-toast').textContent(), { timeout: TIMEOUT }).toContain('Undone');
    await press('Escape');
    await page.getByTestId('selection-count').waitFor({ state: 'detached' });
    expect(found).toEqual([]);
  });

  test("the CEL filter's error at the box", async () => {
    await toAnnotationList();
    await page.fill('#annotation-filter', 'state == ');
    await page.press('#annotation-filter', 'Enter');
    await page.getByTestId('filter-error').waitFor();
    expect(await page.getAttribute('#annotation-filter', 'aria-invalid')).toBe('true');
    const found = await inBothSchemes('filter error', '66-a11y-filter-error');
    await page.fill('#annotation-filter', '');
    await page.press('#annotation-filter', 'Enter');
    await page.getByTestId('filter-error').waitFor({ state: 'detached' });
    expect(found).toEqual([]);
  });

  test('the shortcuts overlay (?)', async () => {
    await toAnnotationList();
    await press('Shift+?');
    await page.getByTestId('shortcut-help').waitFor();
    const found = await inBothSchemes('shortcuts overlay', '67-a11y-shortcuts');
    await press('Escape');
    await page.getByTestId('shortcut-help').waitFor({ state: 'detached' });
    expect(found).toEqual([]);
  });

  test('a refused test-report import', async () => {
    await navigateTo(page, 'test-reports', TIMEOUT);
    await page.setInputFiles('#atml-file', {
      name: 'not-a-report.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from('<?xml version="1.0"?><notAReport/>'),
    });
    await page.getByTestId('import-report').getByRole('alert').waitFor();
    const found = await inBothSchemes('import refused', '68-a11y-import-refused');
    expect(found).toEqual([]);
  });

  test('the rules view with a rule open, and a rejected rule filter', async () => {
    const headers = { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' };
    const condition = {
      expression: { singleChannelComparison: { channelName: 'chamber.pressure', comparator: 'GREATER_THAN', double: 10 } },
      actions: [
        {
          actionType: 'ANNOTATION',
          configuration: { annotation: { tagIds: ['overpressure'], annotationType: 'ANNOTATION_TYPE_DATA_REVIEW' } },
        },
      ],
    };
    const made = await fetch(`${server.url}/api/v1/rules`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ update: { name: 'Chamber overpressure', description: 'Pressure above 10 bar', conditions: [condition] } }),
    });
    expect(made.status).toBe(200);
    await navigateTo(page, 'rules', TIMEOUT);
    await page.locator('.pane-item', { hasText: 'Chamber overpressure' }).click();
    const detail = page.getByTestId('rule-detail');
    await expect.poll(() => detail.locator('h2').textContent(), { timeout: TIMEOUT }).toBe('Chamber overpressure');
    await expect.poll(() => detail.locator('tbody tr').count(), { timeout: TIMEOUT }).toBeGreaterThan(0);
    const found = await inBothSchemes('rules', '69-a11y-rules');
    await page.fill('#rule-filter', 'name ==');
    await page.press('#rule-filter', 'Enter');
    await page.locator('.rules [role="alert"]').first().waitFor();
    found.push(...(await inBothSchemes('rules filter error', '70-a11y-rules-filter-error')));
    expect(found).toEqual([]);
  });

  test('the sync view, and a remote URL it refuses', async () => {
    await navigateTo(page, 'sync', TIMEOUT);
    await page.locator('#sync-state').waitFor();
    const found = await inBothSchemes('sync', '71-a11y-sync');
    await page.fill('#sync-url', 'not a url');
    await page.click('button[type=submit]:has-text("Connect")');
    await expect.poll(() => page.getAttribute('#sync-url', 'aria-invalid'), { timeout: TIMEOUT }).toBe('true');
    found.push(...(await inBothSchemes('sync url refused', '72-a11y-sync-url-refused')));
    expect(found).toEqual([]);
  });

  test('no errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
