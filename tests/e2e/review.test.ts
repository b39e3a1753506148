// The reviewer's day, round two (#31), in Chromium against `outpost serve` on
// the demo data: shortcuts that cannot misfire (keys typed at full speed after
// a key that opens a field go to that field and change nothing), each checked
// against the API.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Annotation } from '../../src-shared/api/annotations';
import { violationsIn } from './support/axe';
import { launchChromium, navigateTo, openAppPage, screenshot, closeAll } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 10_000;

let server: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];

const press = (...keys: string[]) => keys.reduce((p, k) => p.then(() => page.keyboard.press(k)), Promise.resolve());
const cursorId = () => page.evaluate(() => document.querySelector('.row.cursor')?.getAttribute('data-annotation-id') ?? null);
const focusIsList = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'annotation-list');

/** What a shortcut could change on the first page of annotations, as the API has it. */
async function reviewFields(): Promise<Array<Pick<Annotation, 'annotationId' | 'state' | 'assignedToUserId' | 'tags' | 'isArchived'>>> {
  const { annotations } = await server.client.ListAnnotations({ pageSize: 100 });
  return annotations.map(({ annotationId, state, assignedToUserId, tags, isArchived }) => ({
    annotationId,
    state,
    assignedToUserId,
    tags,
    isArchived,
  }));
}

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  server = await startE2eServer(staticDir, { annotations: 200 });
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, server.appUrl, TIMEOUT));
  await page.locator('.row').first().waitFor();
});

afterAll(() => closeAll(browser, server));

describe('shortcuts that cannot misfire', () => {
  // Every letter a triage shortcut uses (i assign-me, t tags, e archive, s state, x select, z undo, j/k, a, c, n).
  const TYPED = 'Written with no network: six jazzy kites';

  for (const { key, field } of [
    { key: 'c', field: 'comment-box' },
    { key: 't', field: 'batch-tag' },
    { key: 'a', field: 'assign-query' },
    { key: '/', field: 'annotation-filter' },
  ]) {
    test(`text typed at full speed after ${key} goes to #${field} only, and nothing changes`, async () => {
      await page.getByTestId('annotation-list').focus();
      if (!(await cursorId())) await press('j');
      await expect.poll(cursorId, { timeout: TIMEOUT }).not.toBeNull();
      const cursor = await cursorId();
      const before = await reviewFields();
      // The CPU slowed 6x: the field takes several frames to open while the keys arrive.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
      try {
        // Sent without waiting for each key's handling: they queue up as a fast typist's would.
        await Promise.all([page.keyboard.press(key), ...[...TYPED].map((c) => page.keyboard.type(c))]);
      } finally {
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
        await cdp.detach();
      }
      await expect.poll(() => page.locator(`#${field}`).inputValue(), { timeout: TIMEOUT }).toBe(TYPED);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe(field);
      await screenshot(page, `70-held-keys-${field}`);
      // Leave without acting: the field is emptied and Esc brings the focus back to the list.
      await page.locator(`#${field}`).fill('');
      await press('Escape');
      await expect.poll(focusIsList, { timeout: TIMEOUT }).toBe(true);
      if (field === 'annotation-filter') await page.locator('.row').first().waitFor();
      expect(await cursorId()).toBe(cursor);
      expect(await reviewFields()).toEqual(before);
      expect(await page.locator('dialog[open]').count()).toBe(0);
    });
  }

  test('a data-changing key does nothing while a picker is open, even with the focus outside it', async () => {
    await page.getByTestId('annotation-list').focus();
    const before = await reviewFields();
    await press('t');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: TIMEOUT }).toBe('batch-tag');
    // The focus leaves the dialog's field (a click on its backdrop does this): keys then reach the page.
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await press('e', 's', 'i', 'z');
    expect(await reviewFields()).toEqual(before);
    await page.evaluate(() => document.querySelector<HTMLDialogElement>('dialog[open]')?.close());
    await expect.poll(() => page.locator('dialog[open]').count(), { timeout: TIMEOUT }).toBe(0);
  });
});

describe('archived annotations are hidden unless asked for', () => {
  const shownIds = () => page.locator('.row').evaluateAll((els) => els.map((e) => e.getAttribute('data-annotation-id')!));
  const archivedIds = async () =>
    new Set((await server.client.ListAnnotations({ filter: 'is_archived', pageSize: 1000 })).annotations.map((a) => a.annotationId));

  test('not under the default list, Open or Assigned to me; the Archived chip shows them', async () => {
    const archived = await archivedIds();
    expect(archived.size).toBeGreaterThan(0);
    const chips = page.getByRole('group', { name: 'Quick filters' });
    await page.getByTestId('annotation-list').focus();
    for (const chip of ['Open', 'Assigned to me']) {
      await chips.getByRole('button', { name: chip, exact: true }).click();
      await expect.poll(() => chips.getByRole('button', { name: chip, exact: true }).getAttribute('aria-pressed')).toBe('true');
      await page.locator('.row').first().waitFor();
      expect((await shownIds()).filter((id) => archived.has(id))).toEqual([]);
      await chips.getByRole('button', { name: chip, exact: true }).click();
      await expect.poll(() => chips.getByRole('button', { name: chip, exact: true }).getAttribute('aria-pressed')).toBe('false');
    }
    // The first archived annotation by name is listed once the chip is on, and gone again when it is off.
    const firstArchived = (await server.client.ListAnnotations({ filter: 'is_archived', orderBy: 'name', pageSize: 1 })).annotations[0];
    await page.fill('#annotation-filter', `name == ${JSON.stringify(firstArchived.name)}`);
    await page.press('#annotation-filter', 'Enter');
    await expect.poll(() => page.getByTestId('result-count').textContent(), { timeout: TIMEOUT }).toBe('0 results');
    await page.getByTestId('archived-chip').click();
    await expect.poll(shownIds, { timeout: TIMEOUT }).toContain(firstArchived.annotationId);
    await screenshot(page, '72-archived-chip');
    await page.getByTestId('archived-chip').click();
    await expect.poll(shownIds, { timeout: TIMEOUT }).not.toContain(firstArchived.annotationId);
    await page.fill('#annotation-filter', '');
    await page.press('#annotation-filter', 'Enter');
    await page.locator('.row').first().waitFor();
  });
});

describe('the filter box keeps context', () => {
  const shownIds = () => page.locator('.row').evaluateAll((els) => els.map((e) => e.getAttribute('data-annotation-id')!));
  const activeId = () => page.evaluate(() => document.activeElement?.id);

  test('a typo keeps the rows and says where; an edit not yet applied is marked; Tab only completes, the shortest field first', async () => {
    await page.locator('.row').first().waitFor();
    const before = await shownIds();
    await page.fill('#annotation-filter', 'nmae == "x"');
    await page.getByTestId('filter-unapplied').waitFor();
    await page.press('#annotation-filter', 'Enter');
    const error = page.getByTestId('filter-error');
    await error.waitFor();
    // The position in the filter, in the sentence itself; the previous rows stay under it.
    expect(await error.getByTestId('error-sentence').innerText()).toMatch(/^The filter was not understood: .*'nmae' at column 1\.$/);
    // (The error takes some height: the virtual list then draws a row or two fewer, the same rows.)
    const after = await shownIds();
    expect(after.length).toBeGreaterThan(5);
    expect(after).toEqual(before.slice(0, after.length));
    expect(await page.getByTestId('filter-unapplied').count()).toBe(0);
    await screenshot(page, '73-filter-typo-keeps-rows');

    // Tab with nothing to complete stays in the box; with `st` it inserts `state` (shortest match first).
    await page.fill('#annotation-filter', '');
    await page.focus('#annotation-filter');
    await press('Tab');
    expect(await activeId()).toBe('annotation-filter');
    await page.keyboard.type('st');
    await page.locator('#filter-completions').waitFor();
    await press('Tab');
    expect(await page.inputValue('#annotation-filter')).toBe('state');
    expect(await activeId()).toBe('annotation-filter');
    await page.fill('#annotation-filter', '');
    await page.press('#annotation-filter', 'Enter');
    await expect.poll(() => error.count(), { timeout: TIMEOUT }).toBe(0);
  });
});

describe('actions report truthfully', () => {
  const alert = () => page.locator('.toast-area [role="alert"]');

  test("a refused archive keeps the cursor and the selection, and says what and why in words, the code behind 'Details'", async () => {
    const { policy } = await server.client.CreatePolicy({
      name: 'No archiving',
      configuration: { cedarPolicy: 'forbid(principal, action in Action::"archive", resource);' },
    });
    try {
      await page.getByTestId('annotation-list').focus();
      if (!(await cursorId())) await press('j');
      await expect.poll(cursorId, { timeout: TIMEOUT }).not.toBeNull();
      const id = (await cursorId())!;
      const name = (await server.client.GetAnnotation({ annotationId: id })).annotation.name;
      await press('e');
      await alert().waitFor();
      const said = await alert().getByTestId('error-sentence').innerText();
      expect(said).toMatch(
        new RegExp(`^Your organization's policy does not allow archiving '${name}' \\(policy “No archiving[^”]*”\\)\\.$`),
      );
      // Only the sentence shows: no code, id or API name until Details is opened.
      const shown = await alert().innerText();
      expect(shown).not.toMatch(/PERMISSION_DENIED|BatchArchiveAnnotations|[0-9a-f]{8}-[0-9a-f]{4}-/);
      await screenshot(page, '71-refused-archive');
      await alert().locator('summary').click();
      expect(await alert().innerText()).toContain('PERMISSION_DENIED');
      // Nothing moved on: the cursor stays and the record is as it was.
      expect(await cursorId()).toBe(id);
      expect((await server.client.GetAnnotation({ annotationId: id })).annotation.isArchived).toBe(false);

      // A selection stays selected after a refusal, and the sentence counts it.
      await page.getByTestId('annotation-list').focus();
      await press('x', 'Shift+J');
      await expect.poll(() => page.getByTestId('selection-count').textContent(), { timeout: TIMEOUT }).toBe('2 selected');
      await press('e');
      await expect
        .poll(() => alert().getByTestId('error-sentence').innerText(), { timeout: TIMEOUT })
        .toMatch(/^Your organization's policy does not allow archiving 2 annotations/);
      expect(await page.getByTestId('selection-count').textContent()).toBe('2 selected');
      await press('Escape');
      await expect.poll(() => page.getByTestId('selection-count').count(), { timeout: TIMEOUT }).toBe(0);
    } finally {
      await server.client.ArchivePolicy({ policyId: policy.policyId });
    }
  });
});

describe('dark mode', () => {
  test('a selected item in Artifacts, Policies and Test reports has enough contrast (axe, dark and light)', async () => {
    // One record in each list (the demo data has policies, not artifacts or test reports).
    await server.client.CreateTestReport({
      status: 'TEST_STATUS_FAILED',
      name: 'Valve acceptance FV-0042',
      testSystemName: 'Merlin-Test-Stand',
      testCase: 'VALVE-ACC-01',
      startTime: '2026-10-29T08:00:00Z',
      endTime: '2026-10-29T08:14:30Z',
      serialNumber: 'FV-0042',
    });
    await navigateTo(page, 'artifacts', TIMEOUT);
    await page.setInputFiles('#artifact-file', { name: 'trace.csv', mimeType: 'text/csv', buffer: Buffer.from('t,p\n0,101.3\n') });
    await page.fill('input[aria-label="Title"]', 'Pressure trace');
    await page.click('form.upload button[type=submit]');
    await page.locator('.detail h2', { hasText: 'Pressure trace' }).waitFor();
    const found: string[] = [];
    for (const view of ['artifacts', 'policies', 'test-reports']) {
      await navigateTo(page, view, TIMEOUT);
      const first = page.locator('.pane-item').first();
      await first.waitFor();
      await first.click();
      await expect.poll(() => first.getAttribute('aria-current'), { timeout: TIMEOUT }).toBe('true');
      found.push(...(await violationsIn(page, 'dark', `${view}, an item selected`, `74-selected-${view}`)));
      found.push(...(await violationsIn(page, 'light', `${view}, an item selected`)));
    }
    expect(found).toEqual([]);
    await navigateTo(page, 'annotations', TIMEOUT);
  });

  test('the page logged no errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
