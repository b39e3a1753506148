// The real renderer in Chromium against a real `outpost serve` engine: the
// reviewer's main flows through the UI, each checked against the API.
//
// Screenshots go to $OUTPOST_E2E_SHOTS (default: <tmp>/outpost-e2e-shots).
// OUTPOST_UPDATE_SCREENSHOT=1 also refreshes docs/screenshot.png (README).
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, openAppPage, screenshot, closeAll } from './support/browser';
import { ensureRendererBuilt, repoRoot } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 10_000;

let server: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];

const shot = (name: string) => screenshot(page, name);

const rows = () => page.locator('.row');
const rowNames = () => page.locator('.row .name').allTextContents();

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  server = await startE2eServer(staticDir);
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, server.appUrl, TIMEOUT));
});

afterAll(() => closeAll(browser, server));

describe('annotations in the browser (outpost serve)', () => {
  test('the list shows the seeded annotations, newest first, and the key leaves the address bar', async () => {
    // Archived annotations are hidden unless asked for.
    const expected = await server.client.ListAnnotations({ pageSize: 50, filter: 'is_archived == false' });
    // A virtual list: the rows on screen (and a margin) are in the page, in the API's order.
    await expect.poll(() => rows().count(), { timeout: TIMEOUT }).toBeGreaterThan(10);
    const names = await rowNames();
    expect(names.length).toBeLessThan(50);
    expect(names).toEqual(expected.annotations.slice(0, names.length).map((a) => a.name));
    expect(page.url()).not.toContain('key=');
    expect(page.url()).not.toContain(server.token);
    await shot('01-list');
  });

  test('a bad filter shows the API error inline', async () => {
    const bad = 'name ==';
    const apiError = await server.client.ListAnnotations({ filter: bad }).catch((e: Error) => e);
    expect(apiError).toBeInstanceOf(Error);
    await page.fill('#annotation-filter', bad);
    await page.press('#annotation-filter', 'Enter');
    const error = page.getByTestId('filter-error');
    await error.waitFor();
    expect(await error.textContent()).toContain((apiError as Error).message);
    expect(await error.textContent()).toContain('INVALID_ARGUMENT');
    expect(await page.getAttribute('#annotation-filter', 'aria-invalid')).toBe('true');
    await shot('02-filter-error');
  });

  test('a good filter narrows the list', async () => {
    await page.fill('#annotation-filter', 'state == ANNOTATION_STATE_FLAGGED');
    await page.click('button[type=submit]:has-text("Apply")');
    await page.getByTestId('filter-error').waitFor({ state: 'detached' });
    await expect
      .poll(
        async () => new Set(await page.locator('.row [data-state]').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))),
        { timeout: TIMEOUT },
      )
      .toEqual(new Set(['ANNOTATION_STATE_FLAGGED']));
    await page.click('button:has-text("Clear")');
    await expect.poll(() => page.locator('.row [data-state="ANNOTATION_STATE_OPEN"]').count(), { timeout: TIMEOUT }).toBeGreaterThan(0);
  });

  test('open an annotation, flag it, and the API has the state and a STATE_UPDATE log', async () => {
    const { annotations } = await server.client.ListAnnotations({ pageSize: 50 });
    const target = annotations.find((a) => a.state === 'ANNOTATION_STATE_OPEN' && !a.isArchived);
    expect(target, 'an OPEN annotation on the first page').toBeDefined();
    const id = target!.annotationId;

    await page.click(`.row[data-annotation-id="${id}"]`);
    await expect.poll(() => page.getByTestId('detail-name').textContent(), { timeout: TIMEOUT }).toBe(target!.name);
    expect(await page.getAttribute(`.row[data-annotation-id="${id}"]`, 'aria-current')).toBe('true');

    await page.click('[aria-label="Review state"] button:has-text("Flagged")');
    await expect
      .poll(() => page.getAttribute('[aria-label="Review state"] button:has-text("Flagged")', 'aria-pressed'), { timeout: TIMEOUT })
      .toBe('true');
    await page.getByTestId('activity').getByText('set state to Flagged').waitFor();
    // The row in the list follows.
    expect(await page.getAttribute(`.row[data-annotation-id="${id}"] [data-state]`, 'data-state')).toBe('ANNOTATION_STATE_FLAGGED');

    const { annotation } = await server.client.GetAnnotation({ annotationId: id });
    expect(annotation.state).toBe('ANNOTATION_STATE_FLAGGED');
    const { annotationLogs } = await server.client.ListAnnotationLogs({ annotationId: id });
    expect(annotationLogs.filter((l) => l.kind === 'ANNOTATION_LOG_KIND_STATE_UPDATE').map((l) => l.stateUpdate?.state)).toContain(
      'ANNOTATION_LOG_STATE_FLAGGED',
    );
    await shot('03-flagged');
  });

  test('tag it, and the API has the tags', async () => {
    const id = (await page.getAttribute('.row[aria-current="true"]', 'data-annotation-id'))!;
    await page.fill('#tag-input', 'needs-review, chamber pressure');
    await page.press('#tag-input', 'Enter');
    await page.locator('[aria-label="Tags"] li', { hasText: 'chamber pressure' }).waitFor();
    expect((await server.client.GetAnnotation({ annotationId: id })).annotation.tags).toEqual(
      expect.arrayContaining(['needs-review', 'chamber pressure']),
    );
    await page.click('button[aria-label="Remove tag chamber pressure"]');
    await page.locator('[aria-label="Tags"] li', { hasText: 'chamber pressure' }).waitFor({ state: 'detached' });
    const { annotation } = await server.client.GetAnnotation({ annotationId: id });
    expect(annotation.tags).toContain('needs-review');
    expect(annotation.tags).not.toContain('chamber pressure');
  });

  test('post a comment and see it in the history', async () => {
    const text = 'Matches the chamber pressure signature from the previous run — flagging for the hardware review.';
    await page.fill('#comment-box', text);
    await page.click('button:has-text("Comment")');
    await page.getByTestId('activity').getByText(text).waitFor();
    expect(await page.inputValue('#comment-box')).toBe('');

    const id = await page.getAttribute('.row[aria-current="true"]', 'data-annotation-id');
    const { annotationLogs } = await server.client.ListAnnotationLogs({ annotationId: id! });
    const last = annotationLogs.at(-1)!;
    expect(last.kind).toBe('ANNOTATION_LOG_KIND_COMMENT');
    expect(last.comment?.body.map((b) => b.text).join('')).toBe(text);
    const path = await shot('04-comment');
    if (process.env.OUTPOST_UPDATE_SCREENSHOT === '1') copyFileSync(path, join(repoRoot, 'docs', 'screenshot.png'));
  });

  test('assign it, archive and unarchive it; the API follows', async () => {
    const id = (await page.getAttribute('.row[aria-current="true"]', 'data-annotation-id'))!;
    const { users } = await server.client.ListActiveUsers({});
    const ana = users.find((u) => u.userName === 'ana.ruiz@outpost.local')!;
    await page.selectOption('#assignee-select', ana.userId);
    await page.getByTestId('activity').getByText('assigned to ana.ruiz@outpost.local').waitFor();
    expect((await server.client.GetAnnotation({ annotationId: id })).annotation.assignedToUserId).toBe(ana.userId);

    await page.click('aside button:has-text("Archive")');
    await page.locator('aside .chip.archived').waitFor();
    expect((await server.client.GetAnnotation({ annotationId: id })).annotation.isArchived).toBe(true);
    await page.click('aside button:has-text("Unarchive")');
    await page.locator('aside .chip.archived').waitFor({ state: 'detached' });
    expect((await server.client.GetAnnotation({ annotationId: id })).annotation.isArchived).toBe(false);
  });

  test('sort by name', async () => {
    const expected = await server.client.ListAnnotations({ pageSize: 50, orderBy: 'name', filter: 'is_archived == false' });
    await page.selectOption('#annotation-sort', 'name');
    await expect
      .poll(async () => (await rowNames()).slice(0, 10), { timeout: TIMEOUT })
      .toEqual(expected.annotations.slice(0, 10).map((a) => a.name));
    const names = await rowNames();
    expect(names).toEqual(expected.annotations.slice(0, names.length).map((a) => a.name));
    await shot('05-sorted');
  });

  test('the exact count at once; scrolling lists the next pages (keyset) until every result is shown', async () => {
    const all: string[] = [];
    let pageToken = '';
    do {
      const res = await server.client.ListAnnotations({
        pageSize: 1000,
        orderBy: 'name',
        filter: 'is_archived == false',
        ...(pageToken ? { pageToken } : {}),
      });
      all.push(...res.annotations.map((a) => a.name));
      pageToken = res.nextPageToken;
    } while (pageToken);
    const count = page.getByTestId('result-count');
    // The engine counts every match at once: the exact number before the rows are all loaded.
    await expect
      .poll(() => count.textContent(), { timeout: TIMEOUT })
      .toMatch(new RegExp(`^${all.length.toLocaleString('en-US')} results \\(\\d[\\d,]* loaded; more load as you scroll\\)$`));
    const list = page.getByTestId('annotation-list');
    await expect
      .poll(
        async () => {
          await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
          return count.textContent();
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(`${all.length.toLocaleString('en-US')} results`);
    await expect
      .poll(
        async () => {
          await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
          return (await rowNames()).at(-1);
        },
        { timeout: TIMEOUT },
      )
      .toBe(all.at(-1));
    const names = await rowNames();
    expect(names).toEqual(all.slice(all.length - names.length));
    expect(names.length).toBeLessThan(60);
    await shot('06-scrolled-to-end');
  });

  test('no errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
