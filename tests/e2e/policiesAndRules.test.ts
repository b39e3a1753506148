// Policies and rules for a reviewer (#31 item 12), in Chromium against `outpost serve` on the demo data, by keyboard:
// "Try it" answers who may do what to an annotation as the engine decides it (checked against the user's real call),
// names the statement that decided and opens its policy; two versions of a policy show their line diff; a rule reads
// in words and its annotations are one link away. Nothing spills sideways, and axe finds no serious or critical
// violation in light or dark, at 1440×900, 1024×640 and 1024×640 at 200% zoom. Screenshots: SHOTS/90-policies-*,
// 91-rules-*.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiKey } from '../../src-main/auth/apiKeys';
import { DEFAULT_ORGANIZATION_NAME } from '../../src-main/auth/identity';
import { violationsLightAndDark } from './support/axe';
import { closeAll, launchChromium, navigateTo, openAppPage, type WindowSize } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 10_000;
const ANA = 'ana.ruiz@outpost.local';
const WINDOWS: readonly (WindowSize & { name: string })[] = [
  { name: '1440x900', width: 1440, height: 900 },
  { name: '1024x640', width: 1024, height: 640 },
  // 1024×640 at 200% zoom: the views stack (list above, record below) and scroll as one page.
  { name: '1024x640-zoom200', width: 512, height: 320, deviceScaleFactor: 2 },
];

/** How far the page reaches past the window sideways (0: nothing spills). */
const sidewaysSpill = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

let server: E2eServer;
let browser: Browser;
let anaId: string;
let anaToken: string;
let target: { annotationId: string; name: string };
let noArchiving: { policyId: string };
let ruleId: string;

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  server = await startE2eServer(staticDir, { annotations: 60 });
  browser = await launchChromium();
  const { users } = await server.client.ListActiveUsers({ pageSize: 100 });
  anaId = users.find((u) => u.userName === ANA)!.userId;
  anaToken = createApiKey(server.engine.db, ANA, DEFAULT_ORGANIZATION_NAME, 'e2e').token;
  const [first] = (await server.client.ListAnnotations({ pageSize: 1, orderBy: 'name' })).annotations;
  target = { annotationId: first.annotationId, name: first.name };
  // Version 1 forbids Ana nothing that matters; version 2 forbids her archiving.
  ({ policy: noArchiving } = await server.client.CreatePolicy({
    name: 'No archiving for Ana',
    configuration: {
      cedarPolicy: `// Ana reviews, others archive.\nforbid(principal == User::"${anaId}", action == Action::"DeleteAnnotation", resource);\n`,
    },
  }));
  await server.client.UpdatePolicy({
    policy: {
      policyId: noArchiving.policyId,
      configuration: {
        cedarPolicy: `// Ana reviews, others archive.\nforbid(principal == User::"${anaId}", action in Action::"archive", resource);\n`,
      },
    },
    updateMask: 'configuration',
    versionNotes: 'All archiving',
  });
  // A rule whose condition made two annotations.
  const { assets } = await server.client.ListAssets({ pageSize: 1 });
  const { tag } = await server.client.CreateTag({ name: 'overvoltage' });
  ({ ruleId } = await server.client.CreateRule({
    update: {
      name: 'Bus overvoltage',
      description: 'Flags the bus above 30 V',
      assetConfiguration: { assetIds: [assets[0].assetId], tagIds: [] },
      conditions: [
        {
          expression: {
            calculatedChannel: { expression: '$1 > 30', channelReferences: { $1: { name: 'bus.voltage' } } },
          },
          actions: [
            {
              actionType: 'ANNOTATION',
              configuration: {
                annotation: { tagIds: [tag.tagId], annotationType: 'ANNOTATION_TYPE_DATA_REVIEW', assignedToUserId: anaId },
              },
            },
          ],
        },
      ],
    },
  }));
  const { rule } = await server.client.GetRule({ ruleId });
  for (const name of ['Overvoltage on bus A', 'Overvoltage on bus B'])
    await server.client.CreateAnnotation({
      name,
      startTime: '2026-09-01T12:00:00Z',
      endTime: '2026-09-01T12:01:00Z',
      assets: [assets[0].name],
      createdByConditionId: rule.conditions[0].ruleConditionId,
    });
});

afterAll(() => closeAll(browser, server));

async function open(size: WindowSize): Promise<{ page: Page; pageErrors: string[] }> {
  const opened = await openAppPage(browser, server.appUrl, TIMEOUT, size);
  await opened.page.locator('.row').first().waitFor();
  return opened;
}

/** Focuses an element and presses keys, as a keyboard user would once there. */
async function keys(page: Page, selector: string, ...pressed: string[]) {
  await page.locator(selector).focus();
  for (const k of pressed) await page.keyboard.press(k);
}

/** Fills "Try it" by keyboard: Ana, the target annotation (found by name), the action by its words; then Check. */
async function tryIt(page: Page, actionWords: string) {
  await page.locator('#trial-user').focus();
  await page.keyboard.type('ana'); // a closed select picks the option its typed letters begin
  await expect.poll(() => page.locator('#trial-user').inputValue(), { timeout: TIMEOUT }).toBe(anaId);
  await page.locator('#trial-search').focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(target.name);
  const radio = page.getByRole('radio', { name: target.name, exact: true });
  await radio.waitFor();
  await page.keyboard.press('Tab'); // into the group of found records
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')), { timeout: TIMEOUT }).toBe('trial-record');
  while (!(await radio.evaluate((r) => r === document.activeElement))) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await expect.poll(() => radio.isChecked(), { timeout: TIMEOUT }).toBe(true);
  await page.keyboard.press('Tab'); // the action
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('trial-action');
  await page.keyboard.type(actionWords);
  await page.keyboard.press('Tab'); // Check
  await page.keyboard.press('Enter');
  await page.getByTestId('trial-sentence').waitFor();
}

describe('policies: try it and a diff between versions (keyboard)', () => {
  for (const win of WINDOWS) {
    test(`${win.name}: try it answers as the engine decides; the diff of two versions; axe light and dark`, async () => {
      const { page, pageErrors } = await open(win);
      const found: string[] = [];
      await navigateTo(page, 'policies', TIMEOUT);
      await keys(page, 'main button:has-text("Try it")', 'Enter');
      await page.getByTestId('policy-trial').waitFor();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('trial-title');

      // Archiving: forbidden by version 2 of "No archiving for Ana"; her real call is refused.
      await tryIt(page, 'archive');
      const sentence = page.getByTestId('trial-sentence');
      expect(await sentence.textContent()).toBe(
        `${ANA} may not archive the annotation '${target.name}': forbidden by “No archiving for Ana” (statement 1).`,
      );
      expect(await page.getByTestId('trial-verdict').locator('.chip').textContent()).toBe('Denied');
      const archive = await fetch(`${server.url}/api/v1/annotations/${target.annotationId}:archive`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${anaToken}`, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(archive.status).toBe(403);
      expect(await sidewaysSpill(page)).toBe(0);
      found.push(...(await violationsLightAndDark(page, `${win.name} try it denied`, `90-policies-${win.name}-try-denied`)));

      // Reading: permitted by the default policy, and her real read succeeds.
      await keys(page, '#trial-action');
      await page.keyboard.type('read');
      await keys(page, 'form button[type="submit"]', 'Enter');
      await expect
        .poll(() => sentence.textContent(), { timeout: TIMEOUT })
        .toBe(`${ANA} may read the annotation '${target.name}': permitted by “Members may do everything” (statement 1).`);
      const read = await fetch(`${server.url}/api/v1/annotations/${target.annotationId}`, {
        headers: { Authorization: `Bearer ${anaToken}` },
      });
      expect(read.status).toBe(200);
      found.push(...(await violationsLightAndDark(page, `${win.name} try it allowed`, `90-policies-${win.name}-try-allowed`)));

      // The deciding statement's policy opens in the editor; its history compares version 1 and 2.
      await keys(page, '#trial-action');
      await page.keyboard.type('archive');
      await keys(page, 'form button[type="submit"]', 'Enter');
      await expect.poll(() => sentence.textContent(), { timeout: TIMEOUT }).toContain('may not archive');
      await keys(page, 'button:has-text("Open “No archiving for Ana” (statement 1)")', 'Enter');
      await expect.poll(() => page.locator('.editor h2').textContent(), { timeout: TIMEOUT }).toBe('No archiving for Ana');
      await keys(page, 'button:has-text("Compare versions")', 'Enter');
      await page.getByTestId('version-diff').waitFor();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('compare-from');
      expect(await page.getByTestId('diff-summary').textContent()).toMatch(/From version 1 to version 2: 1 line added, 1 line removed\./);
      const rows = page.locator('[data-testid="version-diff"] tbody tr');
      expect(
        await rows.evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-kind'), tr.querySelector('.text')?.textContent])),
      ).toEqual([
        ['same', '// Ana reviews, others archive.'],
        ['removed', `forbid(principal == User::"${anaId}", action == Action::"DeleteAnnotation", resource);`],
        ['added', `forbid(principal == User::"${anaId}", action in Action::"archive", resource);`],
      ]);
      expect(await sidewaysSpill(page)).toBe(0);
      found.push(...(await violationsLightAndDark(page, `${win.name} diff`, `90-policies-${win.name}-diff`)));
      // Picked the other way round by keyboard: the same lines, removed and added swapped.
      await page.keyboard.press('ArrowUp'); // From: version 2 (the newest is first)
      await keys(page, '#compare-to', 'ArrowDown'); // To: version 1
      await expect.poll(() => page.getByTestId('diff-summary').textContent(), { timeout: TIMEOUT }).toMatch(/From version 2 to version 1/);
      expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-kind')))).toEqual(['same', 'removed', 'added']);
      await keys(page, 'button:has-text("Back to the editor")', 'Enter');
      await page.locator('#cedar-editor').waitFor();
      expect(found).toEqual([]);
      expect(pageErrors).toEqual([]);
      await page.close();
    });
  }
});

describe('rules in words (keyboard)', () => {
  for (const win of WINDOWS) {
    test(`${win.name}: conditions and actions read as words; the annotations it made are one link away; axe`, async () => {
      const { page, pageErrors } = await open(win);
      await navigateTo(page, 'rules', TIMEOUT);
      await keys(page, 'main .pane-item:has-text("Bus overvoltage")', 'Enter');
      const detail = page.getByTestId('rule-detail');
      await detail.locator('h2', { hasText: 'Bus overvoltage' }).waitFor();
      const [asset] = (await server.client.ListAssets({ pageSize: 1 })).assets;
      expect(await detail.locator('.scope').textContent()).toBe(`Watches asset ${asset.name}.`);
      expect(await detail.locator('.conditions .when').textContent()).toBe('When $1 > 30 holds, where $1 is channel bus.voltage,');
      expect(await detail.locator('.conditions .then').textContent()).toBe(
        `then create an annotation of type Data review, assigned to ${ANA}, tagged overvoltage.`,
      );
      const link = page.getByTestId('rule-annotations');
      await expect.poll(() => link.textContent(), { timeout: TIMEOUT }).toBe('Show the annotations it made (2 annotations)');
      expect(await sidewaysSpill(page)).toBe(0);
      const found = await violationsLightAndDark(page, `${win.name} rule`, `91-rules-${win.name}`);
      await link.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.url(), { timeout: TIMEOUT }).toContain('#/annotations?q=rule_id');
      expect(decodeURIComponent(new URL(page.url()).hash)).toBe(`#/annotations?q=rule_id == "${ruleId}"`);
      await expect
        .poll(() => page.locator('.row .name').allTextContents(), { timeout: TIMEOUT })
        .toEqual(['Overvoltage on bus B', 'Overvoltage on bus A']);
      expect(found).toEqual([]);
      expect(pageErrors).toEqual([]);
      await page.close();
    });
  }
});
