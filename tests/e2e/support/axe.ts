// axe-core in the page (WCAG 2.0/2.1 A and AA rules): the serious and critical
// violations of the page as it is now, and a helper that checks a state in the
// light and the dark color scheme, saving a screenshot of each.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { screenshot } from './browser';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string; any?: Array<{ data?: { messageKey?: string } | null }> }>;
}

export type ColorScheme = 'light' | 'dark';
export const COLOR_SCHEMES: readonly ColorScheme[] = ['light', 'dark'];

/**
 * axe-core's serious and critical violations on the page as it is now, one line each (rule, help, first nodes);
 * also any text of an open modal dialog whose contrast axe could not decide because it took something
 * else for being on top (that text would otherwise pass unchecked).
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the devtools protocol: the app's CSP (script-src 'self') rightly refuses an injected script tag.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(AXE, 'utf8'));
  const { violations, uncheckedInDialog } = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, o: object) => Promise<{ violations: AxeViolation[]; incomplete: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    const contrast = result.incomplete.find((v) => v.id === 'color-contrast');
    // Covered by another element, as axe sees it (it does not model the top layer a modal lives in).
    const overlapped = (contrast?.nodes ?? []).filter((n) => n.any?.some((c) => c.data?.messageKey === 'bgOverlap'));
    const inDialog = overlapped.filter((n) => document.querySelector(n.target.join(' '))?.closest('dialog[open]'));
    return { violations: result.violations, uncheckedInDialog: inDialog.map((n) => n.target.join(' ')) };
  });
  const lines = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.help}): ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` [${n.failureSummary.replace(/\s+/g, ' ').trim()}]` : ''}`)
          .join(' | ')}`,
    );
  if (uncheckedInDialog.length)
    lines.push(
      `color-contrast not decidable in the open dialog (${uncheckedInDialog.length} nodes): ${uncheckedInDialog.slice(0, 3).join(' | ')}`,
    );
  return lines;
}

/**
 * Emulates `scheme` (prefers-color-scheme), waits a frame for the styles, and returns the serious violations of
 * the page prefixed with the scheme and `state`; saves a screenshot `<shot>-<scheme>.png` when `shot` is given.
 */
export async function violationsIn(page: Page, scheme: ColorScheme, state: string, shot?: string): Promise<string[]> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  if (shot) await screenshot(page, `${shot}-${scheme}`);
  return (await seriousViolations(page)).map((v) => `${scheme} ${state}: ${v}`);
}

/** The serious violations of the page as it is now in the light and the dark scheme (screenshots `<shot>-light/-dark.png`); ends in light. */
export async function violationsLightAndDark(page: Page, state: string, shot: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of COLOR_SCHEMES) found.push(...(await violationsIn(page, scheme, state, shot)));
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
