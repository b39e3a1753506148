// Correcting an annotation after it is made (#31), in Chromium against
// `outpost serve`: name, description, times and typed metadata edited in the
// detail, keyboard first (`r`, type, Ctrl+Enter), each checked against the API;
// problems said in words by the field before anything is sent; metadata shown
// in the detail, and "filter by this value" from there.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Annotation } from '../../src-shared/api/annotations';
import { violationsLightAndDark } from './support/axe';
import { launchChromium, openAppPage, screenshot, closeAll } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 10_000;

let server: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];

const press = (...keys: string[]) => keys.reduce((p, k) => p.then(() => page.keyboard.press(k)), Promise.resolve());
const cursorId = () => page.evaluate(() => document.querySelector('.row.cursor')?.getAttribute('data-annotation-id') ?? null);
const activeId = () => page.evaluate(() => document.activeElement?.id ?? '');
const focusIsList = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'annotation-list');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const get = async (annotationId: string) => (await server.client.GetAnnotation({ annotationId })).annotation;

/** Lists the annotations the filter matches and puts the cursor on the first (the detail opens it). */
async function cursorOnFirst(filter: string): Promise<string> {
  await page.fill('#annotation-filter', filter);
  await page.press('#annotation-filter', 'Enter');
  await expect.poll(() => page.getByTestId('result-count').textContent(), { timeout: TIMEOUT }).toBe('1 result');
  await page.getByTestId('annotation-list').focus();
  await press('j');
  await expect.poll(cursorId, { timeout: TIMEOUT }).not.toBeNull();
  return (await cursorId())!;
}

let target: Annotation;

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  server = await startE2eServer(staticDir, { annotations: 120 });
  const { assets } = await server.client.ListAssets({ pageSize: 1 });
  ({ annotation: target } = await server.client.CreateAnnotation({
    name: 'Chamber pressure dip',
    description: 'Seen on the bench',
    startTime: '2026-09-01T12:00:00Z',
    endTime: '2026-09-01T12:01:00Z',
    assets: [assets[0].name],
    metadata: [{ key: { name: 'station', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'pad 39A' }],
  }));
  // A second one with the same station: "filter by this value" lists both.
  await server.client.CreateAnnotation({
    name: 'Valve chatter',
    startTime: '2026-09-02T12:00:00Z',
    endTime: '2026-09-02T12:01:00Z',
    assets: [assets[0].name],
    metadata: [{ key: { name: 'station', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'pad 39A' }],
  });
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, server.appUrl, TIMEOUT));
  await page.locator('.row').first().waitFor();
});

afterAll(() => closeAll(browser, server));

describe('editing an annotation in the detail', () => {
  test('metadata entered at creation is shown in the detail', async () => {
    expect(await cursorOnFirst('name == "Chamber pressure dip"')).toBe(target.annotationId);
    const shown = page.getByTestId('detail-metadata');
    await expect.poll(() => shown.locator('dt').allTextContents(), { timeout: TIMEOUT }).toEqual(['station']);
    expect((await shown.locator('dd .value').allTextContents()).map((t) => t.trim())).toEqual(['pad 39A']);
  });

  test('r, the new name typed at full speed, Ctrl+Enter: only the name changes', async () => {
    await page.getByTestId('annotation-list').focus();
    const before = await get(target.annotationId);
    // Sent without waiting for each key's handling: the keys arrive while the editor opens.
    await Promise.all([page.keyboard.press('r'), page.keyboard.type('Chamber pressure dip (confirmed)')]);
    await expect.poll(() => page.inputValue('#edit-name'), { timeout: TIMEOUT }).toBe('Chamber pressure dip (confirmed)');
    expect(await activeId()).toBe('edit-name');
    await press('Control+Enter');
    await page.getByTestId('annotation-editor').waitFor({ state: 'detached' });
    const after = await get(target.annotationId);
    expect(after.name).toBe('Chamber pressure dip (confirmed)');
    expect({ ...after, name: before.name, modifiedDate: before.modifiedDate }).toEqual(before);
    await expect.poll(() => page.getByTestId('detail-name').textContent(), { timeout: TIMEOUT }).toBe('Chamber pressure dip (confirmed)');
    await expect.poll(() => page.locator('.row.cursor').textContent(), { timeout: TIMEOUT }).toContain('Chamber pressure dip (confirmed)');
    expect(await focusIsList()).toBe(true);
  });

  test('bad times are said in words by their fields and nothing is sent; corrected, start and end are saved', async () => {
    await page.getByTestId('annotation-list').focus();
    await press('r');
    await expect.poll(activeId, { timeout: TIMEOUT }).toBe('edit-name');
    const before = await get(target.annotationId);
    await page.fill('#edit-start', '1 September, noon');
    await page.fill('#edit-end', '2026-09-01T11:00:00Z');
    await press('Control+Enter');
    await expect
      .poll(() => page.locator('#edit-start-problem').textContent(), { timeout: TIMEOUT })
      .toBe('The start is not a date and time: write it as 2026-03-01T14:05:00Z (UTC) or with an offset, 2026-03-01T15:05:00+01:00.');
    // The first field in error has the focus, its message read with it.
    await expect.poll(activeId, { timeout: TIMEOUT }).toBe('edit-start');
    expect(await page.getAttribute('#edit-start', 'aria-describedby')).toBe('edit-start-problem');
    await page.fill('#edit-start', '2026-09-01T12:00:00Z');
    // The message follows the draft: now the end is the problem.
    await expect
      .poll(() => page.locator('#edit-end-problem').textContent(), { timeout: TIMEOUT })
      .toBe('The end must not be before the start.');
    expect(await page.locator('#edit-start-problem').count()).toBe(0);
    await screenshot(page, '80-edit-times-in-words');
    expect(await get(target.annotationId)).toEqual(before);

    await page.fill('#edit-start', '2026-09-01T12:00:30+01:00');
    await page.fill('#edit-end', '2026-09-01T12:05:00Z');
    await page.fill('#edit-description', 'Seen on the bench, twice');
    await press('Control+Enter');
    await page.getByTestId('annotation-editor').waitFor({ state: 'detached' });
    const after = await get(target.annotationId);
    expect([after.startTime, after.endTime, after.description]).toEqual([
      '2026-09-01T11:00:30Z',
      '2026-09-01T12:05:00Z',
      'Seen on the bench, twice',
    ]);
    expect(after.name).toBe(before.name);
    await expect.poll(() => page.getByTestId('detail-description').textContent(), { timeout: TIMEOUT }).toBe('Seen on the bench, twice');
  });

  test('typed metadata: a number and a yes/no added, a text changed; a wrong number is said in words first', async () => {
    await page.getByTestId('annotation-list').focus();
    await press('r');
    await expect.poll(activeId, { timeout: TIMEOUT }).toBe('edit-name');
    await page.getByRole('button', { name: 'Add metadata' }).click();
    await expect.poll(activeId, { timeout: TIMEOUT }).toBe('edit-metadata-key-1');
    await page.keyboard.type('severity');
    await page.getByLabel('Type of key 2').selectOption('METADATA_KEY_TYPE_NUMBER');
    await page.getByLabel('Value of key 2').fill('three');
    await page.getByRole('button', { name: 'Add metadata' }).click();
    await page.keyboard.type('confirmed');
    await page.getByLabel('Type of key 3').selectOption('METADATA_KEY_TYPE_BOOLEAN');
    await page.getByLabel('Value of key 3').selectOption('true');
    await page.getByLabel('Value of key 1').fill('pad 39B');
    await page.getByTestId('annotation-editor').getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.locator('#edit-metadata-value-problem-1').textContent(), { timeout: TIMEOUT })
      .toBe("The value of 'severity' must be a number, such as 42 or 3.5.");
    expect((await get(target.annotationId)).metadata.map((m) => m.stringValue)).toEqual(['pad 39A']);
    const found = await violationsLightAndDark(page, 'annotation editor with a problem', '81-edit-metadata-problem');
    expect(found).toEqual([]);

    await page.getByLabel('Value of key 2').fill('3.5');
    await page.getByLabel('Value of key 2').press('Control+Enter');
    await page.getByTestId('annotation-editor').waitFor({ state: 'detached' });
    const { metadata } = await get(target.annotationId);
    expect(metadata.map((m) => [m.key.name, m.key.type, m.stringValue ?? m.numberValue ?? m.booleanValue])).toEqual([
      ['station', 'METADATA_KEY_TYPE_STRING', 'pad 39B'],
      ['severity', 'METADATA_KEY_TYPE_NUMBER', 3.5],
      ['confirmed', 'METADATA_KEY_TYPE_BOOLEAN', true],
    ]);
    const shown = page.getByTestId('detail-metadata');
    await expect.poll(() => shown.locator('dt').allTextContents(), { timeout: TIMEOUT }).toEqual(['station', 'severity', 'confirmed']);
    expect((await shown.locator('dd .value').allTextContents()).map((t) => t.trim())).toEqual(['pad 39B', '3.5', 'Yes']);
    await screenshot(page, '82-detail-metadata');
  });

  test('Esc leaves the editor without saving; the focus is back on the list', async () => {
    await page.getByTestId('annotation-list').focus();
    const before = await get(target.annotationId);
    await press('r');
    await expect.poll(activeId, { timeout: TIMEOUT }).toBe('edit-name');
    await page.keyboard.type('Not this name');
    await press('Escape');
    await page.getByTestId('annotation-editor').waitFor({ state: 'detached' });
    await expect.poll(focusIsList, { timeout: TIMEOUT }).toBe(true);
    expect(await get(target.annotationId)).toEqual(before);
  });

  test("a refused edit names the annotation, keeps the editor and what was typed, the code behind 'Details'", async () => {
    const { policy } = await server.client.CreatePolicy({
      name: 'Annotations are read-only',
      configuration: { cedarPolicy: 'forbid(principal, action == Action::"UpdateAnnotation", resource is Annotation);' },
    });
    try {
      await page.getByTestId('annotation-list').focus();
      const before = await get(target.annotationId);
      await press('r');
      await expect.poll(activeId, { timeout: TIMEOUT }).toBe('edit-name');
      await page.keyboard.type('Renamed while forbidden');
      await press('Control+Enter');
      const alert = page.locator('aside.detail [role="alert"]', { has: page.getByTestId('error-sentence') });
      await expect
        .poll(() => alert.getByTestId('error-sentence').innerText(), { timeout: TIMEOUT })
        .toMatch(
          new RegExp(
            `^Your organization's policy does not allow saving the changes to '${escape(before.name)}' \\(policy “Annotations are read-only[^”]*”\\)\\.$`,
          ),
        );
      expect(await alert.innerText()).not.toMatch(/PERMISSION_DENIED|UpdateAnnotation|[0-9a-f]{8}-[0-9a-f]{4}-/);
      await alert.locator('summary').click();
      expect(await alert.innerText()).toContain('PERMISSION_DENIED');
      // Nothing moved on: the editor holds the typed name, the cursor stays, the record is as it was.
      expect(await page.inputValue('#edit-name')).toBe('Renamed while forbidden');
      expect(await cursorId()).toBe(target.annotationId);
      expect(await get(target.annotationId)).toEqual(before);
      await screenshot(page, '84-edit-refused');
      await page.locator('#edit-name').press('Escape');
      await page.getByTestId('annotation-editor').waitFor({ state: 'detached' });
    } finally {
      await server.client.ArchivePolicy({ policyId: policy.policyId });
    }
  });

  test('"filter by this value" lists the annotations with the same metadata value', async () => {
    // The other annotation gets the corrected station too.
    const { annotations } = await server.client.ListAnnotations({ filter: 'name == "Valve chatter"' });
    await server.client.UpdateAnnotation({
      annotation: {
        annotationId: annotations[0].annotationId,
        metadata: [{ key: { name: 'station', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'pad 39B' }],
      },
      updateMask: 'metadata',
    });
    await page.fill('#annotation-filter', '');
    await page.press('#annotation-filter', 'Enter');
    await page.getByRole('button', { name: 'Filter by station = pad 39B' }).click();
    await expect.poll(() => page.inputValue('#annotation-filter'), { timeout: TIMEOUT }).toBe('metadata["station"] == "pad 39B"');
    await expect.poll(() => page.getByTestId('result-count').textContent(), { timeout: TIMEOUT }).toBe('2 results');
    const names = await page.locator('.row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-annotation-id')));
    expect(new Set(names)).toEqual(new Set([target.annotationId, annotations[0].annotationId]));
    // A number value: the filter compares numbers.
    await page.getByRole('button', { name: 'Filter by severity = 3.5' }).click();
    await expect
      .poll(() => page.inputValue('#annotation-filter'), { timeout: TIMEOUT })
      .toBe('metadata["station"] == "pad 39B" && metadata["severity"] == 3.5');
    await expect.poll(() => page.getByTestId('result-count').textContent(), { timeout: TIMEOUT }).toBe('1 result');
    expect(pageErrors).toEqual([]);
  });
});

describe('creating an annotation', () => {
  test('a refusal of the engine is said in words by the field it names', async () => {
    await page.getByTestId('annotation-list').focus();
    await press('n');
    await page.getByTestId('create-annotation').waitFor();
    await page.keyboard.type('Made with an unknown run');
    await page.fill('#new-run', 'No such run');
    await press('Control+Enter');
    // The engine's refusal, by the field it names, as a sentence in words.
    await expect
      .poll(() => page.getByTestId('association-error').textContent(), { timeout: TIMEOUT })
      .toMatch(/^\s*Unknown run 'No such run'\.\s*$/);
    await screenshot(page, '83-create-refused-in-words');
    await press('Escape');
    await page.getByTestId('create-annotation').waitFor({ state: 'detached' });
    expect((await server.client.ListAnnotations({ filter: 'name == "Made with an unknown run"' })).annotations).toEqual([]);
  });
});
