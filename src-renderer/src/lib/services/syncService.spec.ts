import { describe, expect, test } from 'vitest';
import { fakeClient } from '../testing/fakeClient';
import { syncStatus } from '../testing/syncFactories';
import {
  badgeOf,
  configureRemote,
  conflictValue,
  operationLabel,
  pulledSummary,
  recordLabel,
  recordQuery,
  stateLabel,
} from './syncService';
import { DEFAULT_SORT } from './annotationService';

describe('syncService', () => {
  test('configureRemote trims; an empty key is left out so the stored one is kept; a choice to send the records made here goes with it', async () => {
    const fake = fakeClient().on('ConfigureSyncRemote', (req) => ({
      remote: { baseUrl: req.baseUrl, hasApiKey: true, adoptPreLinkRecords: null },
    }));
    await configureRemote(fake.client, ' https://remote.example ', ' op_key ');
    await configureRemote(fake.client, 'https://remote.example', '  ');
    await configureRemote(fake.client, 'https://remote.example', 'op_key', 'org-2');
    await configureRemote(fake.client, 'https://remote.example', 'op_key', '');
    expect(fake.callsTo('ConfigureSyncRemote')).toEqual([
      { baseUrl: 'https://remote.example', apiKey: 'op_key' },
      { baseUrl: 'https://remote.example' },
      { baseUrl: 'https://remote.example', apiKey: 'op_key', adoptPreLinkRecords: { organizationId: 'org-2' } },
      { baseUrl: 'https://remote.example', apiKey: 'op_key', adoptPreLinkRecords: {} },
    ]);
  });

  test('the badge shows what needs attention first', () => {
    expect(badgeOf(undefined)).toBeUndefined();
    expect(badgeOf(syncStatus({ remoteUrl: '' }))).toBeUndefined();
    expect(badgeOf(syncStatus({ state: 'auth_error', pendingCount: 4 }))).toMatchObject({ text: 'Key refused', tone: 'error' });
    expect(badgeOf(syncStatus({ state: 'error', lastError: 'offline' }))).toEqual({ text: 'Error', tone: 'error', title: 'offline' });
    expect(badgeOf(syncStatus(), true)).toMatchObject({ text: 'Syncing', tone: 'busy' });
    expect(badgeOf(syncStatus({ failedCount: 1, openConflictCount: 2, pendingCount: 5 }))).toMatchObject({ text: '3', tone: 'warn' });
    expect(badgeOf(syncStatus({ pendingCount: 5 }))).toMatchObject({ text: '5', tone: 'busy' });
    expect(badgeOf(syncStatus())).toMatchObject({ text: '✓', tone: 'ok' });
    // Offline is calm: no error tone, no connection details, the edits waiting here; a run starting does not flip it.
    const offline = syncStatus({ state: 'offline', pendingCount: 3, lastError: 'GET /api/v1/ping: connect ECONNREFUSED 127.0.0.1:4702' });
    for (const running of [false, true]) {
      expect(badgeOf(offline, running)).toEqual({
        text: 'Offline',
        tone: 'busy',
        title: 'Offline: 3 edits saved here; will send when connected',
      });
    }
  });

  test('state labels', () => {
    expect(stateLabel(syncStatus({ remoteUrl: '' }))).toBe('Not linked');
    expect(stateLabel(syncStatus({ state: 'syncing', phase: 'push' }))).toBe('Syncing (sending)');
    expect(stateLabel(syncStatus({ state: 'auth_error' }))).toBe('Stopped: API key refused');
    expect(stateLabel(syncStatus({ state: 'error' }))).toBe('Last sync failed');
    expect(stateLabel(syncStatus({ lastSuccessDate: '2026-09-01T10:00:00Z' }))).toBe('Synced 2026-09-01 10:00:00 UTC');
    expect(stateLabel(syncStatus({ state: 'offline', pendingCount: 1, lastError: 'connect ECONNREFUSED 127.0.0.1:4702' }))).toBe(
      'Offline: 1 edit saved here; will send when connected',
    );
    expect(stateLabel(syncStatus({ failedCount: 1, openConflictCount: 2 }))).toBe('Needs attention: 1 refused edit, 2 conflicts');
    expect(stateLabel(syncStatus({ lastSuccessDate: null }))).toBe('Not synced yet');
  });

  test('summaries and values', () => {
    expect(
      pulledSummary([
        { resource: 'annotations', rows: 2 },
        { resource: 'runs', rows: 0 },
        { resource: 'annotation_logs', rows: 5 },
      ]),
    ).toBe('2 annotations, 5 annotation logs');
    expect(pulledSummary({ annotations: 0 })).toBe('nothing new');
    expect(pulledSummary({ runs: 1, annotations: 2 })).toBe('1 run, 2 annotations');
    expect(conflictValue('ANNOTATION_STATE_FLAGGED', 'state')).toBe('Flagged');
    expect(conflictValue(null, 'description')).toBe('(empty)');
    expect(conflictValue(1788220800000000, 'start_time')).toBe('2026-09-01T00:00:00Z');
    expect(conflictValue(['a', 'b'], 'tags')).toBe('["a","b"]');
    expect(conflictValue({ name: 'x', description: 'y' }, '*')).toBe('the record, kept here');
    expect(conflictValue(null, '*')).toBe('(gone)');
    expect(operationLabel('UpdateAnnotation')).toBe('Update annotation');
  });

  test('records go by their name here, else by the start of their id', () => {
    expect(recordLabel('annotation_log', '5f0c2a9e-1111-2222', 'Pump 3 overheat')).toEqual({
      kind: 'annotation log',
      text: 'Pump 3 overheat',
      named: true,
    });
    expect(recordLabel('test_report', '5f0c2a9e-1111-2222', '')).toEqual({ kind: 'test report', text: '5f0c2a9e', named: false });
  });

  test('an annotation held here opens in the Annotations view listing only it; other records open nowhere', () => {
    expect(recordQuery('annotation', '5f0c2a9e-1111-2222', 'Pump 3 overheat')).toEqual({
      filter: "annotation_id == '5f0c2a9e-1111-2222'",
      sort: DEFAULT_SORT,
    });
    expect(recordQuery('annotation', '5f0c2a9e-1111-2222', '')).toBeUndefined(); // not held here
    expect(recordQuery('saved_search', '5f0c2a9e-1111-2222', 'pumps')).toBeUndefined();
    expect(recordQuery('annotation', "x' || true || '", 'odd')!.filter).toBe("annotation_id == 'x || true || '");
  });
});
