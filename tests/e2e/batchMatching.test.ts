// "Select all N matching" from the keyboard, in Chromium against `outpost serve`: Ctrl+A selects the loaded rows and
// says so, Ctrl+A again selects every annotation the list's query matches (more than are loaded), a state change
// reaches every one of them in the engine, and z restores each to its own earlier state. Checked against the API.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Annotation } from '../../src-shared/api/annotations';
import { violationsLightAndDark } from './support/axe';
import { launchChromium, openAppPage, screenshot, closeAll } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 15_000;

let server: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];

const press = (...keys: string[]) => keys.reduce((p, k) => p.then(() => page.keyboard.press(k)), Promise.resolve());
const selectionText = () => page.getByTestId('selection-count').textContent();

/** Every annotation the list shows (archived hidden), read through the API page by page. */
async function listedAnnotations(): Promise<Annotation[]> {
  const out: Annotation[] = [];
  let pageToken = '';
  do {
    const res = await server.client.ListAnnotations({
      pageSize: 1000,
      filter: 'is_archived == false',
      ...(pageToken ? { pageToken } : {}),
    });
    out.push(...res.annotations);
    pageToken = res.nextPageToken;
  } while (pageToken);
  return out;
}

const statesOf = (rows: readonly Annotation[]) => new Map(rows.map((a) => [a.annotationId, a.state]));

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  server = await startE2eServer(staticDir, { annotations: 700 });
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, server.appUrl, TIMEOUT));
  await page.locator('.row').first().waitFor();
});

afterAll(() => closeAll(browser, server));

describe('select all matching (outpost serve)', () => {
  test('Ctrl+A twice selects every matching annotation; s changes the state of all of them; z restores each', async () => {
    const before = await listedAnnotations();
    const matching = before.length;

    await press('j', 'Control+a');
    await expect.poll(selectionText, { timeout: TIMEOUT }).toMatch(/^[\d,]+ loaded selected$/);
    const loadedCount = Number((await selectionText())!.replace(/\D/g, ''));
    expect(loadedCount).toBeLessThan(matching);
    expect(await page.getByTestId('select-all-matching').textContent()).toContain(`select all ${matching.toLocaleString()} matching`);
    // The bar's offer passes axe (serious or critical: none), light and dark.
    expect(await violationsLightAndDark(page, 'loaded selected, all matching offered', '90-loaded-selected')).toEqual([]);

    await press('Control+a');
    await expect.poll(selectionText, { timeout: TIMEOUT }).toBe(`All ${matching.toLocaleString()} matching selected`);

    // s: every selected annotation to the state after the first row's (phases have none and are left alone).
    const firstId = (await page.locator('.row').first().getAttribute('data-annotation-id'))!;
    const order = ['ANNOTATION_STATE_OPEN', 'ANNOTATION_STATE_FLAGGED', 'ANNOTATION_STATE_RESOLVED'];
    const next = order[(order.indexOf(statesOf(before).get(firstId)!) + 1) % 3];
    const reviewed = before.filter((a) => a.annotationType !== 'ANNOTATION_TYPE_PHASE');
    const toChange = reviewed.filter((a) => a.state !== next).length;
    expect(toChange).toBeGreaterThan(loadedCount);
    await press('s');
    const word = next.replace('ANNOTATION_STATE_', '').toLowerCase();
    await expect
      .poll(() => page.getByTestId('batch-toast').textContent(), { timeout: TIMEOUT })
      .toContain(`Set ${toChange.toLocaleString()} annotations to ${word}`);
    const after = await listedAnnotations();
    expect(after.filter((a) => a.annotationType !== 'ANNOTATION_TYPE_PHASE').every((a) => a.state === next)).toBe(true);
    expect(after).toHaveLength(matching);
    // The loaded rows are painted with it.
    await expect
      .poll(() => page.locator(`.row[data-annotation-id="${firstId}"] [data-state]`).getAttribute('data-state'), { timeout: TIMEOUT })
      .toBe(next);
    await screenshot(page, '91-all-matching-changed');

    await press('z');
    await expect.poll(() => page.getByTestId('batch-toast').textContent(), { timeout: TIMEOUT }).toContain('Undone');
    expect(statesOf(await listedAnnotations())).toEqual(statesOf(before));
    expect(pageErrors).toEqual([]);
  });
});
