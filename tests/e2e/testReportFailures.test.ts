// Test reports a reviewer can find their way in (#31), in Chromium against
// `outpost serve`: two imports of the same TestStand file (same title) told
// apart in the list by file name and import time; "Failures (n)" lists the
// steps where a report failed and its failed measurements, each a click from
// its place in the 223-step tree (expanded, selected and scrolled to).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestMeasurement, TestReport, TestStep } from '../../src-shared/api/testReports';
import { violationsLightAndDark } from './support/axe';
import { launchChromium, navigateTo, openAppPage, screenshot, closeAll } from './support/browser';
import { ensureRendererBuilt, repoRoot } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 10_000;
const ATML = readFileSync(join(repoRoot, 'tests', 'fixtures', 'teststand', 'demo_test_report.xml'));

let server: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];
let first: TestReport;
let second: TestReport;
let failedStep: TestStep;
let failedMeasurement: TestMeasurement;

/** Uploads the ATML file under `fileName` and imports it, as the app does. */
async function importAs(fileName: string): Promise<TestReport> {
  const form = new FormData();
  form.append('entityId', crypto.randomUUID());
  form.append('entityType', 'test_reports');
  form.append('file', new Blob([ATML], { type: 'application/xml' }), fileName);
  const auth = { Authorization: `Bearer ${server.token}` };
  const upload = await fetch(`${server.url}/api/v0/remote-files/upload`, { method: 'POST', headers: auth, body: form });
  const { remoteFile } = (await upload.json()) as { remoteFile: { remoteFileId: string } };
  return (await server.client.ImportTestReport({ remoteFileId: remoteFile.remoteFileId })).testReport;
}

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  server = await startE2eServer(staticDir, { annotations: 20 });
  first = await importAs('bench_B_first_try.xml');
  second = await importAs('bench_B_second_try.xml');
  // The second try failed deep in the tree (the row 158 of 223): that step, and so its group, failed, and
  // a measurement elsewhere was out of its limits.
  const { testSteps } = await server.client.ListTestSteps({
    filter: `test_report_id == "${second.testReportId}"`,
    orderBy: 'step_path',
    pageSize: 1000,
  });
  expect(testSteps).toHaveLength(223);
  failedStep = testSteps.filter((s) => s.stepPath.split('.').length === 4)[100];
  for (const s of [failedStep, testSteps.find((x) => x.testStepId === failedStep.parentStepId)!]) {
    await server.client.UpdateTestStep({ testStep: { testStepId: s.testStepId, status: 'TEST_STATUS_FAILED' }, updateMask: 'status' });
  }
  const { testMeasurements } = await server.client.ListTestMeasurements({
    filter: `test_report_id == "${second.testReportId}"`,
    pageSize: 100,
  });
  failedMeasurement = testMeasurements.find((m) => m.testStepId !== failedStep.testStepId)!;
  await server.client.UpdateTestMeasurement({
    testMeasurement: { measurementId: failedMeasurement.measurementId, passed: false },
    updateMask: 'passed',
  });
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, server.appUrl, TIMEOUT));
  await page.locator('.row').first().waitFor();
});

afterAll(() => closeAll(browser, server));

const reportRow = (fileName: string) => page.getByRole('button', { name: new RegExp(fileName) });

describe('test reports', () => {
  test('two reports with the same title are told apart by file name and import time', async () => {
    expect(first.name).toBe(second.name);
    await navigateTo(page, 'test-reports', TIMEOUT);
    await expect.poll(() => page.getByTestId('report-source').count(), { timeout: TIMEOUT }).toBe(2);
    const sources = (await page.getByTestId('report-source').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(sources.toSorted()).toEqual([
      expect.stringMatching(/^bench_B_first_try\.xml · imported \S.+$/),
      expect.stringMatching(/^bench_B_second_try\.xml · imported \S.+$/),
    ]);
    // Each row keeps its status beside the title.
    for (const file of ['bench_B_first_try.xml', 'bench_B_second_try.xml'])
      expect(await reportRow(file).textContent()).toContain(first.name);
    await screenshot(page, '85-reports-same-title');
  });

  test('Failures (n) lists where the report failed and its failed measurements; each jumps to its place in the tree', async () => {
    await reportRow('bench_B_second_try.xml').click();
    const failures = page.getByTestId('report-failures');
    // The failing group is not listed: the step inside it is where it failed.
    await expect.poll(() => failures.getByRole('heading').textContent(), { timeout: TIMEOUT }).toBe('Failures (2)');
    const entries = failures.getByRole('button');
    expect(await entries.count()).toBe(2);
    expect(await entries.nth(0).textContent()).toContain(failedStep.stepPath);
    expect(await entries.nth(0).textContent()).toContain(failedStep.name);
    expect(await entries.nth(1).textContent()).toContain(failedMeasurement.name);

    // Collapse the group that holds the failed step: the jump opens it again.
    const parentItem = page.locator('li[role="treeitem"]', { has: page.locator(`#step-${failedStep.parentStepId}`) });
    await parentItem.getByRole('button', { name: 'Collapse' }).click();
    expect(await page.locator(`#step-${failedStep.testStepId}`).count()).toBe(0);

    await entries.nth(0).click();
    const stepButton = page.locator(`#step-${failedStep.testStepId}`);
    await expect
      .poll(() => stepButton.evaluate((el) => el.closest('li')?.getAttribute('aria-selected')), { timeout: TIMEOUT })
      .toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: TIMEOUT }).toBe(`step-${failedStep.testStepId}`);
    expect(await stepButton.isVisible()).toBe(true);
    expect(await inView(`#step-${failedStep.testStepId}`)).toBe(true);
    await screenshot(page, '86-failure-step');

    await entries.nth(1).click();
    const row = page.locator(`#measurement-${failedMeasurement.measurementId}`);
    await expect.poll(() => row.getAttribute('aria-current'), { timeout: TIMEOUT }).toBe('true');
    await expect
      .poll(() => page.locator(`#step-${failedMeasurement.testStepId}`).evaluate((el) => el.closest('li')?.getAttribute('aria-selected')))
      .toBe('true');
    expect(await row.textContent()).toContain('Fail');
    expect(await inView(`#measurement-${failedMeasurement.measurementId}`)).toBe(true);
    await screenshot(page, '87-failure-measurement');
    expect(await violationsLightAndDark(page, 'report failures', '88-report-failures')).toEqual([]);
  });

  test('a report without failures shows no failures list', async () => {
    await reportRow('bench_B_first_try.xml').click();
    await expect.poll(() => page.locator('li[role="treeitem"]').count(), { timeout: TIMEOUT }).toBeGreaterThan(0);
    expect(await page.getByTestId('report-failures').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});

/** Whether the element is inside its scrolling pane's visible area. */
function inView(selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((el) => {
    let pane = el.parentElement;
    while (pane && getComputedStyle(pane).overflowY !== 'auto') pane = pane.parentElement;
    const box = el.getBoundingClientRect();
    const view = (pane ?? document.documentElement).getBoundingClientRect();
    return box.top >= view.top && box.bottom <= view.bottom;
  });
}
