// The layout on a field laptop, in Chromium against `outpost serve` on the
// demo data: 1024×640, 1366×768, 1280×800 at 150% (as a 1280×800 window with
// 1.5 device pixels per CSS px, and as a 1280×800 screen scaled to 150%, whose
// window is 853×533 CSS px) and 1024×640 at 200% zoom (512×320 CSS px). At
// each: nothing spills sideways, the filter box and the name column stay
// readable, an open annotation's detail fits (beside the list when there is
// room, over it when not), every view fits, and axe-core finds no serious or
// critical violation in the light or the dark scheme. A larger browser font
// size scales the whole UI (sizes are in rem). Screenshots: SHOTS/80-layout-*.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { violationsLightAndDark } from './support/axe';
import { launchChromium, navigateTo, openAppPage, type WindowSize, closeAll } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 10_000;
/** Readable: at least this many CSS px of a name (12 rem at the default 16 px font would be 192). */
const READABLE_NAME_PX = 160;

interface Window extends WindowSize {
  readonly name: string;
  /** The detail lies over the list (the window is below the 75em breakpoint). */
  readonly overlay: boolean;
}

const WINDOWS: readonly Window[] = [
  { name: '1024x640', width: 1024, height: 640, overlay: true },
  { name: '1366x768', width: 1366, height: 768, overlay: false },
  { name: '1280x800-dpr1.5', width: 1280, height: 800, deviceScaleFactor: 1.5, overlay: false },
  { name: '1280x800-scaled150', width: 853, height: 533, deviceScaleFactor: 1.5, overlay: true },
  { name: '1024x640-zoom200', width: 512, height: 320, deviceScaleFactor: 2, overlay: true },
];

/** The views besides Annotations, checked in the narrowest windows. */
const OTHER_VIEWS = ['artifacts', 'policies', 'test-reports', 'saved-searches', 'rules', 'sync'] as const;

let server: E2eServer;
let browser: Browser;

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  server = await startE2eServer(staticDir, { annotations: 120 });
  browser = await launchChromium();
});

afterAll(() => closeAll(browser, server));

async function openIn(size: WindowSize): Promise<{ page: Page; pageErrors: string[] }> {
  const opened = await openAppPage(browser, server.appUrl, TIMEOUT, size);
  await opened.page.locator('.row').first().waitFor();
  return opened;
}

/** How far the page reaches past the window sideways (0: nothing spills). */
const sidewaysSpill = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

const box = async (page: Page, selector: string) => {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} is not on screen`);
  return b;
};

describe('layout on a field laptop (outpost serve)', () => {
  for (const win of WINDOWS) {
    test(`${win.name}: the list, an open annotation and axe in light and dark`, async () => {
      const { page, pageErrors } = await openIn(win);
      const found: string[] = [];
      expect(await sidewaysSpill(page)).toBe(0);
      expect((await box(page, '#annotation-filter')).width).toBeGreaterThanOrEqual(READABLE_NAME_PX);
      expect((await box(page, '.row .name')).width).toBeGreaterThanOrEqual(READABLE_NAME_PX);
      found.push(...(await violationsLightAndDark(page, `${win.name} list`, `80-layout-${win.name}-list`)));

      await page.locator('.row').nth(1).click();
      await page.getByTestId('detail-name').waitFor();
      const detail = await box(page, 'aside.detail');
      const list = await box(page, '[data-testid="annotation-list"]');
      expect(detail.x + detail.width).toBeLessThanOrEqual(win.width + 0.5);
      if (win.overlay) {
        // Over the list: either a readable strip of names stays to its left, or it takes the list's whole width.
        const name = await box(page, '.row .name');
        const visibleName = Math.min(name.x + name.width, detail.x) - name.x;
        const coversList = detail.x <= list.x + 0.5;
        expect(coversList || visibleName >= READABLE_NAME_PX, `name shows ${visibleName}px beside the detail`).toBe(true);
      } else {
        expect(detail.x).toBeGreaterThanOrEqual(list.x + list.width - 0.5);
        expect((await box(page, '.row .name')).width).toBeGreaterThanOrEqual(READABLE_NAME_PX);
      }
      expect(await sidewaysSpill(page)).toBe(0);
      found.push(...(await violationsLightAndDark(page, `${win.name} detail`, `80-layout-${win.name}-detail`)));

      if (win.overlay) {
        // Esc (from the list) puts the overlay away and the list is whole again.
        await page.getByTestId('annotation-list').focus();
        await page.keyboard.press('Escape');
        await page.locator('aside.detail').waitFor({ state: 'detached' });
      }

      if (win.width < 900) {
        for (const view of OTHER_VIEWS) {
          await navigateTo(page, view, TIMEOUT);
          await page.locator('main [aria-busy="true"]').waitFor({ state: 'detached' });
          // The first record open where the view has one (the demo data has a policy), to see list and record together.
          const first = page.locator('main .pane-item').first();
          if (await first.count()) {
            await first.click();
            await page.locator('main .placeholder').waitFor({ state: 'detached' });
          }
          expect(await sidewaysSpill(page), view).toBe(0);
          found.push(...(await violationsLightAndDark(page, `${win.name} ${view}`, `80-layout-${win.name}-${view}`)));
        }
      }
      expect(found).toEqual([]);
      expect(pageErrors).toEqual([]);
      await page.close();
    });
  }

  test('a larger browser font size scales the UI (sizes are in rem)', async () => {
    const { page } = await openIn({ width: 1366, height: 768 });
    const measure = () =>
      Promise.all([box(page, '#annotation-filter'), box(page, '.row'), box(page, 'nav.rail')]).then(([filter, row, rail]) => ({
        filter: filter.height,
        row: row.height,
        rail: rail.width,
      }));
    const before = await measure();
    // The browser's font size setting is the root element's font size: 20 px instead of 16.
    await page.evaluate(() => (document.documentElement.style.fontSize = '20px'));
    await expect.poll(async () => (await measure()).row, { timeout: TIMEOUT }).toBeCloseTo(before.row * 1.25, 0);
    const after = await measure();
    expect(after.filter).toBeCloseTo(before.filter * 1.25, 0);
    expect(after.rail).toBeCloseTo(before.rail * 1.25, 0);
    await page.close();
  });
});
