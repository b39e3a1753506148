// The Sync view in Chromium: a fresh replica (`outpost serve` with background
// sync) and a second real server as its remote. Connect in the UI (a bad URL
// first: the field says why, nothing is stored), edit an annotation, press
// "Sync now" and find the edit on the remote through its API; then a conflict
// (the same field changed on both sides) is listed and undone from the UI;
// a key the remote refuses is not saved (the form says it was the key), one
// it revokes later stops sync visibly until a good key is saved; an edit the
// remote refuses is listed by its record's name with the remote's reason (the
// name opens the annotation), one that created nothing here can be dismissed,
// a refused create corrected in the Annotations view lands on Retry, and one
// that no edit can mend is discarded with its record after a confirmation.
// axe-core finds no serious violation in those states, light or dark.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiKey } from '../../src-main/auth/apiKeys';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from '../../src-main/auth/identity';
import { violationsLightAndDark } from './support/axe';
import { launchChromium, openAppPage, navigateTo, screenshot, closeAll } from './support/browser';
import { ensureRendererBuilt } from './support/renderer';
import { startE2eServer, type E2eServer } from './support/server';

const TIMEOUT = 15_000;

let remote: E2eServer;
let local: E2eServer;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];

const shot = (name: string) => screenshot(page, name);
const goTo = (view: string) => navigateTo(page, view, TIMEOUT);
const stateText = () => page.locator('#sync-state').textContent();
const a11y = (state: string, shotName: string) => violationsLightAndDark(page, state, shotName);
const remoteState = async (id: string) => (await remote.client.GetAnnotation({ annotationId: id })).annotation.state;

/** Opens an annotation in the Annotations view and sets its review state from the detail pane. */
async function setStateInUi(id: string, label: 'Flagged' | 'Resolved' | 'Open') {
  await goTo('annotations');
  await page.click(`.row[data-annotation-id="${id}"]`);
  await page.click(`[aria-label="Review state"] button:has-text("${label}")`);
  await expect
    .poll(() => page.getAttribute(`[aria-label="Review state"] button:has-text("${label}")`, 'aria-pressed'), { timeout: TIMEOUT })
    .toBe('true');
}

async function syncNowInUi() {
  await goTo('sync');
  await page.locator('button:has-text("Sync now"):not([disabled])').click();
  // The run finished: in sync, or in sync with refused edits or conflicts to look at.
  await expect.poll(stateText, { timeout: TIMEOUT }).toMatch(/^Synced |^Needs attention: /);
}

beforeAll(async () => {
  const staticDir = await ensureRendererBuilt();
  remote = await startE2eServer(staticDir, { annotations: 12 });
  local = await startE2eServer(staticDir, { seed: false, backgroundSync: true });
  browser = await launchChromium();
  ({ page, pageErrors } = await openAppPage(browser, local.appUrl, TIMEOUT));
});

afterAll(() => closeAll(browser, local, remote));

describe('sync in the browser (outpost serve replica + a remote)', () => {
  test('a bad URL is refused next to its field and nothing is stored', async () => {
    await goTo('sync');
    await expect.poll(stateText, { timeout: TIMEOUT }).toBe('Not linked');
    expect(await page.locator('nav a[href="#/sync"] [data-tone]').count()).toBe(0);
    await page.fill('#sync-url', 'ftp://remote.example');
    await page.fill('#sync-key', remote.token);
    await page.click('button[type=submit]:has-text("Connect")');
    await expect.poll(() => page.locator('#sync-url-help').textContent(), { timeout: TIMEOUT }).toBe('must use http or https, not ftp');
    expect(await page.getAttribute('#sync-url', 'aria-invalid')).toBe('true');
    expect((await local.client.GetSyncRemote({})).remote).toBeNull();
  });

  test('connect: the first sync brings the remote’s annotations and the status says so', async () => {
    await page.fill('#sync-url', remote.url);
    await page.click('button[type=submit]:has-text("Connect")');
    await page.getByText(`Saved. A sync with ${remote.url} has started.`).waitFor();
    expect(await page.inputValue('#sync-key')).toBe('');
    await expect.poll(stateText, { timeout: TIMEOUT }).toMatch(/^Synced /);
    await expect.poll(() => page.getByTestId('last-run').textContent(), { timeout: TIMEOUT }).toMatch(/received .*\d+ annotations/);
    const ids = (rows: { annotationId: string }[]) => rows.map((a) => a.annotationId).sort();
    const [here, there] = [await local.client.ListAnnotations({ pageSize: 500 }), await remote.client.ListAnnotations({ pageSize: 500 })];
    expect(there.annotations.length).toBeGreaterThan(0);
    expect(ids(here.annotations)).toEqual(ids(there.annotations));
    expect(await local.client.GetSyncRemote({})).toEqual({ remote: { baseUrl: remote.url, hasApiKey: true, adoptPreLinkRecords: null } });
    expect(await page.getAttribute('nav a[href="#/sync"] [data-tone]', 'data-tone')).toBe('ok');
  });

  test('an edit waits locally, then "Sync now" sends it to the remote', async () => {
    const { annotations } = await remote.client.ListAnnotations({ filter: 'state == ANNOTATION_STATE_OPEN', orderBy: 'name' });
    const target = annotations[0];
    expect(target, 'an OPEN annotation on the remote').toBeDefined();
    await setStateInUi(target.annotationId, 'Flagged');
    expect(await remoteState(target.annotationId)).toBe('ANNOTATION_STATE_OPEN');
    // The row carries the pending-sync mark while the edit waits in the outbox.
    const mark = page.locator(`.row[data-annotation-id="${target.annotationId}"] [data-testid="pending-sync"]`);
    await mark.waitFor();
    await shot('29-pending-sync-mark');

    await goTo('sync');
    await expect.poll(() => page.getByTestId('pending-count').textContent(), { timeout: TIMEOUT }).not.toBe('0 edits');
    await expect.poll(() => page.getAttribute('nav a[href="#/sync"] [data-tone]', 'data-tone'), { timeout: TIMEOUT }).toBe('busy');
    await syncNowInUi();
    await expect.poll(() => remoteState(target.annotationId), { timeout: TIMEOUT }).toBe('ANNOTATION_STATE_FLAGGED');
    await expect.poll(() => page.getByTestId('pending-count').textContent(), { timeout: TIMEOUT }).toBe('0 edits');
    await expect.poll(() => page.getByTestId('last-run').textContent(), { timeout: TIMEOUT }).toMatch(/sent [1-9]/);
    await goTo('annotations');
    await page.locator(`.row[data-annotation-id="${target.annotationId}"]`).waitFor();
    await page.locator('[data-testid="annotation-list"][data-sync-marks="read"]').waitFor();
    expect(await mark.count()).toBe(0);
    await goTo('sync');
    // The remote records the change under the remote user the replica synced as.
    const { annotationLogs } = await remote.client.ListAnnotationLogs({ annotationId: target.annotationId });
    expect(annotationLogs.filter((l) => l.kind === 'ANNOTATION_LOG_KIND_STATE_UPDATE').map((l) => l.stateUpdate?.state)).toContain(
      'ANNOTATION_LOG_STATE_FLAGGED',
    );
    await shot('30-sync');
  });

  test('a conflict on the same field is listed, and Undo sends the value that lost', async () => {
    const { annotations } = await remote.client.ListAnnotations({ filter: 'state == ANNOTATION_STATE_OPEN', orderBy: 'name' });
    const target = annotations[0];
    // The remote resolves it first; later, offline from the remote's point of view, this machine flags it: the later write wins.
    await remote.client.UpdateAnnotation({
      annotation: { annotationId: target.annotationId, state: 'ANNOTATION_STATE_RESOLVED' },
      updateMask: 'state',
    });
    await setStateInUi(target.annotationId, 'Flagged');
    await syncNowInUi();
    await expect.poll(() => remoteState(target.annotationId), { timeout: TIMEOUT }).toBe('ANNOTATION_STATE_FLAGGED');

    // The record goes by its name (its id in the tooltip).
    const row = page.locator('tr[data-conflict]', { hasText: target.name });
    await row.waitFor();
    expect(await row.locator('td').allTextContents()).toEqual(
      expect.arrayContaining([`annotation ${target.name}`, 'state', 'This machine', 'Flagged', 'Resolved']),
    );
    expect(await row.locator('.record').getAttribute('title')).toBe(`annotation ${target.annotationId}`);
    await shot('31-sync-conflict');
    expect(await a11y('sync conflict', '73-a11y-sync-conflict')).toEqual([]);
    await row.getByRole('button', { name: 'Undo' }).click();
    await row.waitFor({ state: 'detached' });
    await syncNowInUi();
    await expect.poll(() => remoteState(target.annotationId), { timeout: TIMEOUT }).toBe('ANNOTATION_STATE_RESOLVED');
    const { conflicts } = await local.client.ListSyncConflicts({ state: 'all' });
    expect(conflicts.map((c) => [c.field, c.winner, c.state])).toEqual([['state', 'local', 'undone']]);
  });

  test('a key the remote refuses is not saved, and the form says it was the key; sync goes on with the stored one', async () => {
    await goTo('sync');
    await page.fill('#sync-key', 'op_not_a_valid_key');
    await page.click('button[type=submit]:has-text("Save")');
    const refusal = page.locator('.remote .error', { hasText: 'Not linked: the server answered, but refused the API key.' });
    await refusal.waitFor();
    expect(await page.getByText('Saved. A sync with').count()).toBe(0);
    await shot('32-sync-key-refused');
    // The stored key is still the good one: a run now succeeds.
    const before = (await local.client.GetSyncStatus({})).lastSyncFinishedDate;
    await page.locator('button:has-text("Sync now"):not([disabled])').click();
    await expect.poll(async () => (await local.client.GetSyncStatus({})).lastSyncFinishedDate, { timeout: TIMEOUT }).not.toBe(before);
    await expect.poll(stateText, { timeout: TIMEOUT }).toMatch(/^Synced /);
  });

  test('a key the remote revokes later stops sync and says so; saving a good key resumes it', async () => {
    // Accepted when it is saved (the link is checked), revoked on the remote afterwards.
    const { token } = createApiKey(remote.engine.db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME, 'revoked later');
    await page.fill('#sync-key', token);
    await page.click('button[type=submit]:has-text("Save")');
    await page.getByText('Saved. A sync with').waitFor();
    await expect.poll(stateText, { timeout: TIMEOUT }).toMatch(/^Synced /);
    remote.engine.db.run("UPDATE api_keys SET revoked_date = 1 WHERE name = 'revoked later'");
    await page.locator('button:has-text("Sync now"):not([disabled])').click();
    await expect.poll(stateText, { timeout: TIMEOUT }).toBe('Stopped: API key refused');
    await page.locator('.last-error', { hasText: 'refused the API key (401)' }).waitFor();
    expect(await page.getAttribute('nav a[href="#/sync"] [data-tone]', 'data-tone')).toBe('error');
    await shot('32-sync-auth-stopped');
    expect(await a11y('sync auth stopped', '74-a11y-sync-auth-stopped')).toEqual([]);
    await page.fill('#sync-key', remote.token);
    await page.click('button[type=submit]:has-text("Save")');
    await expect.poll(stateText, { timeout: TIMEOUT }).toMatch(/^Synced /);
    await page.locator('.last-error').waitFor({ state: 'detached' });
  });

  test("an edit the remote refuses is listed by its record's name, with the remote's reason", async () => {
    // An asset only this machine knows (written straight into its database): the remote refuses the create.
    const db = local.engine.db;
    const { organization_id: org, created_by_user_id: user } = db.get<{ organization_id: string; created_by_user_id: string }>(
      'SELECT organization_id, created_by_user_id FROM assets LIMIT 1',
    )!;
    const now = Date.now() * 1000;
    db.run(
      'INSERT INTO assets(id, organization_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ['6b6b6b6b-0000-4000-a000-00000000e2e1', org, 'Bench-Rig-Local', now, user, now, user],
    );
    const refused = (
      await local.client.CreateAnnotation({
        name: 'Vibration on the local rig',
        startTime: '2026-10-29T08:00:00Z',
        endTime: '2026-10-29T08:00:05Z',
        assets: ['Bench-Rig-Local'],
      })
    ).annotation;
    await syncNowInUi();
    const row = page.locator('section[aria-labelledby="failed-title"] tbody tr', { hasText: 'Vibration on the local rig' });
    await row.waitFor({ timeout: TIMEOUT });
    const cells = await row.locator('td').allTextContents();
    expect(cells[1]).toBe('Create annotation');
    expect(cells[2].trim()).toBe('annotation Vibration on the local rig');
    expect(cells[3]).toMatch(/Bench-Rig-Local/);
    expect(await page.getAttribute('nav a[href="#/sync"] [data-tone]', 'data-tone')).toBe('warn');
    // A refused create holds a record that exists only here: it can be retried, not dismissed.
    expect(await row.getByRole('button', { name: 'Dismiss' }).count()).toBe(0);
    // Its name opens it in Annotations, listing only it (to correct it there before a Retry).
    await row.getByRole('button', { name: 'Vibration on the local rig' }).click();
    await page.locator(`.row[data-annotation-id="${refused.annotationId}"]`).waitFor({ timeout: TIMEOUT });
    expect(await page.inputValue('#annotation-filter')).toBe(`annotation_id == '${refused.annotationId}'`);
    expect(await page.locator('.row[data-annotation-id]').count()).toBe(1);
    // The address says so too (the route: the query and the open record).
    const [path, query] = (await page.evaluate(() => location.hash)).split('?');
    expect(path).toBe('#/annotations');
    expect(Object.fromEntries(new URLSearchParams(query))).toEqual({
      q: `annotation_id == '${refused.annotationId}'`,
      open: refused.annotationId,
    });
    // ... and open in the detail pane, where it can be corrected.
    await expect
      .poll(() => page.getAttribute(`.row[data-annotation-id="${refused.annotationId}"]`, 'aria-current'), { timeout: TIMEOUT })
      .toBe('true');
    expect(await page.getByTestId('detail-name').textContent()).toBe('Vibration on the local rig');
    await shot('34-sync-refused-record-opened');

    // An edit of an annotation the remote no longer has is refused too; that one can be set aside.
    const asset = remote.engine.db.get<{ name: string }>('SELECT name FROM assets LIMIT 1')!.name;
    const { annotation } = await remote.client.CreateAnnotation({
      name: 'Gone from the remote',
      startTime: '2026-10-29T09:00:00Z',
      endTime: '2026-10-29T09:00:05Z',
      assets: [asset],
    });
    await syncNowInUi();
    await local.client.UpdateAnnotation({
      annotation: { annotationId: annotation.annotationId, description: 'checked on site' },
      updateMask: 'description',
    });
    remote.engine.db.run('DELETE FROM annotations WHERE id = ?', [annotation.annotationId]);
    await syncNowInUi();
    const gone = page.locator('section[aria-labelledby="failed-title"] tbody tr', { hasText: 'Gone from the remote' });
    await gone.waitFor({ timeout: TIMEOUT });
    expect((await gone.locator('td').allTextContents())[1]).toBe('Update annotation');
    await shot('33-sync-refused');
    expect(await a11y('sync refused', '75-a11y-sync-refused')).toEqual([]);
    await gone.getByRole('button', { name: 'Dismiss' }).click();
    await gone.waitFor({ state: 'detached', timeout: TIMEOUT });
    await expect.poll(() => page.getByTestId('refused-count').textContent(), { timeout: TIMEOUT }).toMatch(/^1 refused · /);
  });

  test('a refused create corrected in Annotations lands on Retry', async () => {
    // A colleague this machine still counts as a member (they left the team on the remote): the remote refuses the create.
    const db = local.engine.db;
    const org = db.get<{ organization_id: string }>('SELECT organization_id FROM assets LIMIT 1')!.organization_id;
    const leaver = '7c7c7c7c-0000-4000-a000-00000000e2e2';
    db.run('INSERT INTO users(id, user_name, created_date, modified_date) VALUES (?, ?, ?, ?)', [
      leaver,
      'leaver@example.com',
      Date.now() * 1000,
      Date.now() * 1000,
    ]);
    db.run('INSERT INTO memberships(user_id, organization_id) VALUES (?, ?)', [leaver, org]);
    const asset = db.get<{ name: string }>("SELECT name FROM assets WHERE name <> 'Bench-Rig-Local' LIMIT 1")!.name;
    const { annotation } = await local.client.CreateAnnotation({
      name: 'Handover: seal leak',
      startTime: '2026-10-29T10:00:00Z',
      endTime: '2026-10-29T10:00:05Z',
      assets: [asset],
      assignToUserId: leaver,
    });
    await syncNowInUi();
    const row = page.locator('section[aria-labelledby="failed-title"] tbody tr', { hasText: 'Handover: seal leak' });
    await row.waitFor({ timeout: TIMEOUT });
    expect(await row.locator('td.reason').textContent()).toMatch(/unknown user/);

    // Open it from the refused list, take it over, and retry.
    await row.getByRole('button', { name: 'Handover: seal leak' }).click();
    await page.getByTestId('detail-name').filter({ hasText: 'Handover: seal leak' }).waitFor({ timeout: TIMEOUT });
    await page.getByRole('button', { name: 'Assign to me' }).click();
    const assignee = async () => (await local.client.GetAnnotation({ annotationId: annotation.annotationId })).annotation.assignedToUserId;
    await expect.poll(assignee, { timeout: TIMEOUT }).not.toBe(leaver);
    const mine = await assignee();
    expect(mine).not.toBe('');
    await goTo('sync');
    await row.getByRole('button', { name: 'Retry' }).click();
    await row.waitFor({ state: 'detached', timeout: TIMEOUT });
    await syncNowInUi();
    // (Background sync may be the run that sends it: wait for the remote rather than for one run.)
    const landed = async () =>
      (await remote.client.ListAnnotations({ filter: "name == 'Handover: seal leak'" })).annotations.map((x) => x.assignedToUserId);
    await expect.poll(landed, { timeout: TIMEOUT }).toEqual([mine]);
    await expect.poll(() => page.getByTestId('refused-count').textContent(), { timeout: TIMEOUT }).toMatch(/^1 refused · /);
    await shot('35-sync-refused-create-corrected');
  });

  test('a refused create no edit can mend is discarded, after a confirmation, with its record', async () => {
    // 'Vibration on the local rig' names an asset only this machine has; assets cannot be updated.
    const { annotations } = await local.client.ListAnnotations({ filter: "name == 'Vibration on the local rig'" });
    expect(annotations).toHaveLength(1);
    await goTo('sync');
    const row = page.locator('section[aria-labelledby="failed-title"] tbody tr', { hasText: 'Vibration on the local rig' });
    await row.getByRole('button', { name: 'Discard…' }).click();
    await row.getByText('Delete it here? It exists nowhere else.').waitFor({ timeout: TIMEOUT });
    await shot('36-sync-discard-confirm');
    expect(await a11y('sync discard confirm', '76-a11y-sync-discard-confirm')).toEqual([]);
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached', timeout: TIMEOUT });
    await expect.poll(() => page.getByTestId('refused-count').textContent(), { timeout: TIMEOUT }).toMatch(/^0 refused · /);
    await expect(local.client.GetAnnotation({ annotationId: annotations[0].annotationId })).rejects.toMatchObject({ code: 5 });
  });

  test('no errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
