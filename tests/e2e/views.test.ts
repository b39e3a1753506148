// The other views in Chromium against a real `outpost serve`: saved searches
// (save from Annotations, open again), policies (create, edit, validate, save
// a version), artifacts (upload, preview) and test reports (list, header).
// Each flow is checked against the API.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, openAppPage, navigateTo, screenshot, closeAll } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 10_000;

let server: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];

const shot = (name: string) => screenshot(page, name);
const goTo = (view: string) => navigateTo(page, view, TIMEOUT);

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  server = await startE2eServer(staticDir, { annotations: 300 });
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, server.appUrl, TIMEOUT));
  await page.locator('.row').first().waitFor();
});

afterAll(() => closeAll(browser, server));

describe('views in the browser (outpost serve)', () => {
  test('save a search from Annotations, then open it from Saved searches', async () => {
    const filter = 'state == ANNOTATION_STATE_RESOLVED';
    await page.fill('#annotation-filter', filter);
    await page.press('#annotation-filter', 'Enter');
    await page.selectOption('#annotation-sort', 'name');
    await expect
      .poll(
        async () => new Set(await page.locator('.row [data-state]').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))),
        { timeout: TIMEOUT },
      )
      .toEqual(new Set(['ANNOTATION_STATE_RESOLVED']));
    await page.click('button:has-text("Save search")');
    await page.fill('#save-search-name', 'Resolved, by name');
    await page.click('form.save button[type=submit]');
    await page.getByText('Saved as “Resolved, by name”').waitFor();
    const { savedSearches } = await server.client.ListSavedSearches({});
    expect(savedSearches.map((s) => [s.name, s.properties.overviewMode, s.properties.searchTerm, s.properties.orderBy])).toEqual([
      ['Resolved, by name', 'ANNOTATIONS', filter, 'name'],
    ]);

    // Start from a different query, then reopen the saved one.
    await page.click('button:has-text("Clear")');
    await goTo('saved-searches');
    await page.locator('tr', { hasText: 'Resolved, by name' }).waitFor();
    await shot('10-saved-searches');
    await page.locator('tr', { hasText: 'Resolved, by name' }).getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => page.inputValue('#annotation-filter'), { timeout: TIMEOUT }).toBe(filter);
    expect(await page.inputValue('#annotation-sort')).toBe('name');
    const expected = await server.client.ListAnnotations({ filter: `${filter} && is_archived == false`, orderBy: 'name', pageSize: 50 });
    // The virtual list renders the rows on screen: they are the saved query's first rows.
    await expect
      .poll(async () => (await page.locator('.row .name').allTextContents()).slice(0, 10), { timeout: TIMEOUT })
      .toEqual(expected.annotations.slice(0, 10).map((a) => a.name));
    const names = await page.locator('.row .name').allTextContents();
    expect(names).toEqual(expected.annotations.slice(0, names.length).map((a) => a.name));
  });

  test('policies: create, edit, validate, save a version; the history shows it', async () => {
    await goTo('policies');
    await page.click('button:has-text("New policy")');
    await page.fill('#new-policy-name', 'Field team may resolve');
    await page.click('form.create button[type=submit]');
    await expect.poll(() => page.inputValue('#cedar-editor'), { timeout: TIMEOUT }).toContain('permit');

    // Invalid text: Validate shows the parser's message.
    await page.fill('#cedar-editor', 'permit (principal, action');
    await page.click('button:has-text("Validate")');
    const validation = page.locator('p.validation');
    await validation.waitFor();
    expect(await validation.textContent()).toMatch(/^✗ /);
    const invalid = await server.client.ValidatePolicy({ cedarPolicy: 'permit (principal, action' });
    expect(invalid.valid).toBe(false);
    expect(await validation.textContent()).toContain(invalid.failureMessage!);

    const text = 'permit (\n  principal,\n  action == Action::"UpdateAnnotation",\n  resource\n);\n';
    await page.fill('#cedar-editor', text);
    await page.click('button:has-text("Validate")');
    await page.getByText('✓ Valid Cedar.').waitFor();
    await page.fill('#version-notes', 'Only annotation updates');
    await page.click('button:has-text("Save version")');
    await page.locator('.history button.version', { hasText: 'v2 (current)' }).waitFor();
    await shot('11-policies');

    const { policies } = await server.client.ListPolicies({});
    const saved = policies.find((p) => p.name === 'Field team may resolve')!;
    expect(saved.version).toBe(2);
    expect(saved.configuration.cedarPolicy).toBe(text);
    const { policyVersions } = await server.client.ListPolicyVersions({ policyId: saved.policyId });
    expect(policyVersions.map((v) => [v.version, v.versionNotes ?? ''])).toEqual([
      [2, 'Only annotation updates'],
      [1, 'Created'],
    ]);
  });

  test('artifacts: upload a file and see its content', async () => {
    await goTo('artifacts');
    const csv = 'time,chamber_pressure_kpa\n0.0,101.3\n0.1,188.6\n';
    await page.setInputFiles('#artifact-file', { name: 'pressure-trace.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.fill('input[aria-label="Title"]', 'Pressure trace, run 12');
    await page.click('form.upload button[type=submit]');
    await page.locator('.detail h2', { hasText: 'Pressure trace, run 12' }).waitFor();
    await expect.poll(() => page.locator('pre.preview').textContent(), { timeout: TIMEOUT }).toBe(csv);
    await shot('12-artifacts');
    const { artifacts } = await server.client.ListArtifacts({});
    const uploaded = artifacts.find((a) => a.title === 'Pressure trace, run 12')!;
    expect(uploaded).toMatchObject({ fileName: 'pressure-trace.csv', sizeBytes: String(Buffer.byteLength(csv)) });
  });

  test('test reports: the list and the selected report', async () => {
    const { testReport } = await server.client.CreateTestReport({
      status: 'TEST_STATUS_FAILED',
      name: 'Valve acceptance FV-0042',
      testSystemName: 'Merlin-Test-Stand',
      testCase: 'VALVE-ACC-01',
      startTime: '2026-10-29T08:00:00Z',
      endTime: '2026-10-29T08:14:30Z',
      serialNumber: 'FV-0042',
    });
    await goTo('test-reports');
    await page.click(`button.pane-item:has-text("${testReport.name}")`);
    await page.locator('.report h2', { hasText: testReport.name }).waitFor();
    expect(await page.locator('.report header').textContent()).toContain('FV-0042');
    expect(await page.locator('.report header [data-status]').getAttribute('data-status')).toBe('TEST_STATUS_FAILED');
    await shot('13-test-reports');
  });

  test('no errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
