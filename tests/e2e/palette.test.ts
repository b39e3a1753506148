// The command palette (Ctrl/Cmd+K), driven by the keyboard only, in Chromium
// against `outpost serve` on the demo data: it opens from anywhere (a text
// field included, whose text stays), fuzzy-matches views, actions, the list's
// own actions, saved searches and recent records, runs the chosen one with Enter (an action as
// its own key would, on the row under the cursor), closes with Esc giving the
// focus back, and passes axe in light and dark. The commands of other views
// are there too: one runs in its view (New policy, Import a test report); a
// view's own commands leave with it; a recent test report or policy opens in
// its view, selected, with its address.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { violationsIn, violationsLightAndDark } from './support/axe';
import { launchChromium, openAppPage, closeAll, screenshot } from './support/browser';
import { ensureRendererBuilt, repoRoot } from './support/renderer';
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
const optionLabels = () => palette().locator('[role="option"] .label').allTextContents();
const ATML = join(repoRoot, 'tests', 'fixtures', 'teststand', 'demo_test_report.xml');

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
    await choose('go pol', 'Go to Policies', 'view');
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

  test("another view's command from here: New policy goes there and opens its form, the name typed at once lands in it", async () => {
    await choose('new poli', 'New policy', 'action');
    await press('Enter');
    // Typed at full speed while the view mounts and its form opens: held for the name field, nothing else gets it.
    await page.keyboard.type('Palette policy');
    await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain('#/policies');
    await expect.poll(activeId, { timeout: TIMEOUT }).toBe('new-policy-name');
    await expect.poll(() => page.inputValue('#new-policy-name'), { timeout: TIMEOUT }).toBe('Palette policy');
    await press('Enter');
    await expect.poll(() => page.locator('section.editor h2').textContent(), { timeout: TIMEOUT }).toBe('Palette policy');
    const { policies } = await server.client.ListPolicies({ pageSize: 100 });
    const created = policies.filter((p) => p.name === 'Palette policy');
    expect(created).toHaveLength(1);
    // The open policy is in the address.
    await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain(`#/policies?open=${created[0].policyId}`);
  });

  test("a view's commands are offered while it is on screen and leave with it", async () => {
    // On Policies (the new policy open): its commands, not the annotation list's.
    await page.locator('#cedar-editor').waitFor();
    await press('Escape'); // out of the name field, if the focus is still there
    await choose('validate', 'Validate the policy text', 'action');
    expect(await optionLabels()).not.toContain('Sort by start time');
    // Nor is the view on screen offered as a place to go.
    await page.keyboard.press('Control+a');
    await page.keyboard.type('go to');
    await expect.poll(optionLabels, { timeout: TIMEOUT }).toContain('Go to Rules');
    expect(await optionLabels()).not.toContain('Go to Policies');
    await press('Escape');
    await palette().waitFor({ state: 'detached' });
    await choose('go annot', 'Go to Annotations', 'view');
    await press('Enter');
    await page.locator('.row').first().waitFor();
    await press('Control+k');
    await page.keyboard.type('validate the policy');
    await palette().getByText('Nothing matches “validate the policy”.').waitFor();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('sort by start');
    await expect.poll(() => activeOption().locator('.label').textContent(), { timeout: TIMEOUT }).toBe('Sort by start time');
    await press('Escape');
    await palette().waitFor({ state: 'detached' });
  });

  test('Import a test report from another view: the file chooser opens; the report imports and opens', async () => {
    // Listening first: Chromium intercepts the chooser only once the listener is set up.
    const chooser = page.waitForEvent('filechooser', { timeout: TIMEOUT });
    await choose('import test', 'Import a test report (ATML file)', 'action');
    await press('Enter');
    await (await chooser).setFiles(ATML);
    await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain('#/test-reports');
    await expect.poll(() => page.getByTestId('import-report').getByRole('status').textContent(), { timeout: 30_000 }).toContain('Imported');
    const { testReports } = await server.client.ListTestReports({ pageSize: 10 });
    expect(testReports).toHaveLength(1);
    await expect.poll(() => page.locator('section.report h2').textContent(), { timeout: TIMEOUT }).toBe(testReports[0].name);
    await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain(`#/test-reports?open=${testReports[0].testReportId}`);
  });

  test('New annotation from the Test reports view: the annotations view opens its form as `n` does, the name typed at once lands in it', async () => {
    await choose('new annot', 'New annotation', 'action');
    await press('Enter');
    // At once, while the view mounts and the form opens (`g`, `t`, `e`, `a` are shortcuts there): held for the name.
    await page.keyboard.type('From the palette');
    await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain('#/annotations');
    await expect.poll(activeId, { timeout: TIMEOUT }).toBe('new-name');
    await expect.poll(() => page.inputValue('#new-name'), { timeout: TIMEOUT }).toBe('From the palette');
    await press('Escape');
    await page.getByTestId('create-annotation').waitFor({ state: 'detached' });
  });

  test('recent records of every kind: a test report and a policy reopen in their views, selected', async () => {
    const report = (await server.client.ListTestReports({ pageSize: 10 })).testReports[0];
    const policy = (await server.client.ListPolicies({ pageSize: 100 })).policies.find((p) => p.name === 'Palette policy')!;
    // From the Annotations view (where the previous test left off).
    await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain('#/annotations');
    await page.locator('.row').first().waitFor();

    await choose(report.name, report.name, 'recent');
    expect(await activeOption().locator('.kind').textContent()).toContain('Recent test report');
    await press('Enter');
    await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain(`#/test-reports?open=${report.testReportId}`);
    await expect.poll(() => page.locator('section.report h2').textContent(), { timeout: TIMEOUT }).toBe(report.name);
    await expect.poll(() => page.locator('.pane-item[aria-current="true"] .name').textContent(), { timeout: TIMEOUT }).toBe(report.name);

    await choose('Palette policy', 'Palette policy', 'recent');
    expect(await activeOption().locator('.kind').textContent()).toContain('Recent policy');
    await press('Enter');
    await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain(`#/policies?open=${policy.policyId}`);
    await expect.poll(() => page.locator('section.editor h2').textContent(), { timeout: TIMEOUT }).toBe('Palette policy');
    await expect
      .poll(() => page.locator('.pane-item[aria-current="true"] .name').textContent(), { timeout: TIMEOUT })
      .toBe('Palette policy');

    // Back goes to the report again (the palette's choice was a new history entry); a reload keeps the record open.
    await page.goBack();
    await expect.poll(() => page.locator('section.report h2').textContent(), { timeout: TIMEOUT }).toBe(report.name);
    await page.reload();
    await expect.poll(() => page.locator('section.report h2').textContent(), { timeout: TIMEOUT }).toBe(report.name);
  });

  test('an address naming a record that is not there says so in words, and the view works on', async () => {
    await page.evaluate(() => (location.hash = '#/policies?open=3f0e1c2a-0000-4000-8000-000000000000'));
    const problem = page.locator('section.list .error');
    await expect.poll(() => problem.locator('.title').textContent(), { timeout: TIMEOUT }).toBe('Could not open the policy');
    expect(await problem.getByTestId('error-sentence').textContent()).toBe(
      'This record no longer exists here (deleted, or in another organization).',
    );
    await expect.poll(() => page.locator('.pane-item .name').allTextContents(), { timeout: TIMEOUT }).toContain('Palette policy');
  });

  test('axe: the palette with commands, saved searches and recent records, light and dark, at 1024×640 and 1366×768', async () => {
    const found: string[] = [];
    for (const [width, height] of [
      [1024, 640],
      [1366, 768],
    ]) {
      await page.setViewportSize({ width, height });
      await press('Control+k');
      await expect.poll(activeId, { timeout: TIMEOUT }).toBe('palette-query');
      // Every kind is listed: views (with keys), actions, a saved search, recent records.
      await expect.poll(() => palette().locator('[data-kind="recent"]').count(), { timeout: TIMEOUT }).toBeGreaterThan(1);
      found.push(...(await violationsLightAndDark(page, `palette ${width}x${height}`, `83-palette-${width}x${height}`)));
      await page.keyboard.type('p');
      found.push(...(await violationsLightAndDark(page, `palette typed ${width}x${height}`, `83-palette-typed-${width}x${height}`)));
      await press('Escape');
      await palette().waitFor({ state: 'detached' });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(found).toEqual([]);
  });

  test('Theme: dark or light whatever the system says, kept over a reload; "follow the system" again', async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await background();
    await choose('theme dark', 'Theme: dark', 'action');
    await press('Enter');
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), { timeout: TIMEOUT }).toBe('dark');
    await expect.poll(background, { timeout: TIMEOUT }).toBe('rgb(20, 23, 27)');
    // The dark theme chosen on a light system passes axe as the dark system theme does.
    const found = await violationsIn(page, 'light', 'dark theme on a light system', '83-palette-theme-dark');
    await page.reload();
    await page.locator('h1, .row').first().waitFor();
    expect(await background()).toBe('rgb(20, 23, 27)');
    // The chosen theme is not offered again.
    await press('Control+k');
    await page.keyboard.type('theme');
    const themes = async () => (await optionLabels()).filter((l) => l.startsWith('Theme')).sort();
    await expect.poll(themes, { timeout: TIMEOUT }).toEqual(['Theme: follow the system (light or dark)', 'Theme: light']);
    await page.keyboard.type(' system');
    await press('Enter');
    await palette().waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme ?? 'none'), { timeout: TIMEOUT }).toBe('none');
    expect(await background()).toBe(light);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(background, { timeout: TIMEOUT }).toBe('rgb(20, 23, 27)');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(found).toEqual([]);
  });

  test('Sync now with no remote set: the Sync view says why and puts the focus in the server URL', async () => {
    await page.goto(`${server.appUrl}#/annotations`);
    await page.locator('.row').first().waitFor();
    await choose('sync now', 'Sync now', 'action');
    await press('Enter');
    await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain('#/sync');
    await expect
      .poll(() => page.locator('.notice[role="status"]').textContent(), { timeout: TIMEOUT })
      .toContain('Nothing to sync with yet: link this profile to the platform first');
    await expect.poll(activeId, { timeout: TIMEOUT }).toBe('sync-url');
    await screenshot(page, 'palette-sync-now-no-remote');
    await page.goto(`${server.appUrl}#/annotations`);
    await page.locator('.row').first().waitFor();
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

describe('a command of the Sync view from the Annotations view (outpost serve replica + a remote)', () => {
  let remote: E2eServer;
  let local: E2eServer;
  let syncPage: Page;

  beforeAll(async () => {
    const staticDir = await ensureRendererBuilt();
    remote = await startE2eServer(staticDir, { annotations: 5 });
    // Background sync with hour-long intervals: after the first run, only "Sync now" brings changes.
    local = await startE2eServer(staticDir, { seed: false, backgroundSync: true });
    await local.client.ConfigureSyncRemote({ baseUrl: remote.url, apiKey: remote.token });
    const end = Date.now() + TIMEOUT;
    while ((await local.client.GetSyncStatus({})).lastSuccessDate === null) {
      if (Date.now() > end) throw new Error('the first sync did not finish');
      await new Promise((r) => setTimeout(r, 50));
    }
    ({ page: syncPage } = await openAppPage(browser, local.appUrl, TIMEOUT));
    await syncPage.locator('.row').first().waitFor();
  });

  afterAll(async () => {
    await syncPage?.close();
    await closeAll(local, remote);
  });

  test('Sync now: chosen in the Annotations view, it runs in the Sync view and brings the remote’s change', async () => {
    const { annotations } = await remote.client.ListAnnotations({ pageSize: 1 });
    const id = annotations[0].annotationId;
    await remote.client.UpdateAnnotation({ annotation: { annotationId: id, name: 'Renamed on the remote' }, updateMask: 'name' });
    expect((await local.client.GetAnnotation({ annotationId: id })).annotation.name).not.toBe('Renamed on the remote');

    await syncPage.keyboard.press('Control+k');
    await syncPage.keyboard.type('sync now');
    const active = syncPage.getByTestId('command-palette').locator('[role="option"][aria-selected="true"]');
    await expect.poll(() => active.locator('.label').textContent(), { timeout: TIMEOUT }).toBe('Sync now');
    await syncPage.keyboard.press('Enter');
    await expect.poll(() => syncPage.url(), { timeout: TIMEOUT }).toContain('#/sync');
    await expect
      .poll(async () => (await local.client.GetAnnotation({ annotationId: id })).annotation.name, { timeout: TIMEOUT })
      .toBe('Renamed on the remote');
    await expect.poll(() => syncPage.locator('#sync-state').textContent(), { timeout: TIMEOUT }).toMatch(/^Synced /);
  });
});
