// The command palette (Ctrl/Cmd+K), driven by the keyboard only, in Chromium
// against `outpost serve` on the demo data: it opens from anywhere (a text
// field included, whose text stays), fuzzy-matches views, actions, the list's
// own actions, saved searches and recent records, runs the chosen one with Enter (an action as
// its own key would, on the row under the cursor), closes with Esc giving the
// focus back, and passes axe in light and dark.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { violationsLightAndDark } from './support/axe';
import { launchChromium, openAppPage, closeAll } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 10_000;
const FLAGGED = 'state == ANNOTATION_STATE_FLAGGED';

let server: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];

const press = (...keys: string[]) => keys.reduce((p, k) => p.then(() => page.keyboard.press(k)), Promise.resolve());
const activeId = () => page.evaluate(() => document.activeElement?.id);
const palette = () => page.getByTestId('command-palette');
const activeOption = () => palette().locator('[role="option"][aria-selected="true"]');
const appliedFilter = () => page.getByTestId('annotation-list').locator('..').getAttribute('data-applied-filter');

/** Opens the palette with Ctrl+K and types `query`; waits until `label` is the active option. */
async function choose(query: string, label: string, kind: string) {
  await press('Control+k');
  await expect.poll(activeId, { timeout: TIMEOUT }).toBe('palette-query');
  await page.keyboard.type(query);
  await expect.poll(() => activeOption().locator('.label').textContent(), { timeout: TIMEOUT }).toBe(label);
  expect(await activeOption().getAttribute('data-kind')).toBe(kind);
}

async function toListRow() {
  // `/` then Esc: into the filter and back to the list, the keyboard's way to the rows.
  await press('/', 'Escape');
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')), { timeout: TIMEOUT })
    .toBe('annotation-list');
}

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  server = await startE2eServer(staticDir, { annotations: 120 });
  await server.client.CreateSavedSearch({
    name: 'Pressure review',
    properties: { overviewMode: 'ANNOTATIONS', searchTerm: FLAGGED, orderBy: 'name' },
  });
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, server.appUrl, TIMEOUT));
  await page.locator('.row').first().waitFor();
});

afterAll(() => closeAll(browser, server));

describe('command palette, keyboard only (outpost serve)', () => {
  test('views: fuzzy-matched, Enter goes there; Esc closes and gives the focus back', async () => {
    await choose('pol', 'Go to Policies', 'view');
    const found = await violationsLightAndDark(page, 'palette', '83-palette');
    await press('Enter');
    await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain('#/policies');
    await palette().waitFor({ state: 'detached' });

    await choose('g t annot', 'Go to Annotations', 'view');
    await press('Enter');
    await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain('#/annotations');
    await toListRow();
    await press('Control+k');
    await palette().waitFor();
    await press('Escape');
    await palette().waitFor({ state: 'detached' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')), { timeout: TIMEOUT })
      .toBe('annotation-list');
    expect(found).toEqual([]);
  });

  test('Ctrl+K from the filter box opens the palette and leaves the typed text alone', async () => {
    await press('/');
    await page.keyboard.type('name == "x"');
    await press('Control+k');
    await expect.poll(activeId, { timeout: TIMEOUT }).toBe('palette-query');
    await press('Escape');
    await palette().waitFor({ state: 'detached' });
    await expect.poll(activeId, { timeout: TIMEOUT }).toBe('annotation-filter');
    expect(await page.inputValue('#annotation-filter')).toBe('name == "x"');
    // Typed, not applied: the list still shows every annotation.
    expect(await appliedFilter()).toBe('');
  });

  test('a saved search: its query is listed', async () => {
    await choose('presrev', 'Pressure review', 'saved-search');
    await press('Enter');
    await expect.poll(appliedFilter, { timeout: TIMEOUT }).toBe(FLAGGED);
    expect(await page.inputValue('#annotation-sort')).toBe('name');
  });

  test("the list's own actions: a state only, a sort", async () => {
    await choose('only resol', 'Only resolved annotations', 'list');
    await press('Enter');
    await expect.poll(appliedFilter, { timeout: TIMEOUT }).toBe('state == ANNOTATION_STATE_RESOLVED');
    await choose('sort by start', 'Sort by start time', 'list');
    await press('Enter');
    await expect.poll(() => page.inputValue('#annotation-sort'), { timeout: TIMEOUT }).toBe('start_time');
    expect(await appliedFilter()).toBe('state == ANNOTATION_STATE_RESOLVED');
  });

  test('an action runs on the row under the cursor, as its key would; undo too', async () => {
    await toListRow();
    await press('j');
    const id = await page.locator('.row.cursor').getAttribute('data-annotation-id');
    expect(id).toBeTruthy();
    await choose('archive', 'Archive / unarchive', 'action');
    await press('Enter');
    await expect
      .poll(async () => (await server.client.GetAnnotation({ annotationId: id! })).annotation.archivedDate, { timeout: TIMEOUT })
      .toBeTruthy();
    await choose('undo', 'Undo the last batch action', 'action');
    await press('Enter');
    await expect
      .poll(async () => (await server.client.GetAnnotation({ annotationId: id! })).annotation.archivedDate ?? null, { timeout: TIMEOUT })
      .toBeNull();
  });

  test('a recent record opens in the detail', async () => {
    await toListRow();
    await press('j');
    const first = (await page.getByTestId('detail-name').textContent())!;
    await press('j', 'j');
    await expect.poll(() => page.getByTestId('detail-name').textContent(), { timeout: TIMEOUT }).not.toBe(first);
    await choose(first, first, 'recent');
    await press('Enter');
    await expect.poll(() => page.getByTestId('detail-name').textContent(), { timeout: TIMEOUT }).toBe(first);
  });

  test('nothing matching says so; no errors in the page', async () => {
    await press('Control+k');
    await page.keyboard.type('qqqzzz');
    await palette().getByText('Nothing matches “qqqzzz”.').waitFor();
    await press('Enter', 'Escape');
    await palette().waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });
});
