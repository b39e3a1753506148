// Runs (reference §11.2): create (plain and ad hoc), get, update by mask,
// stop, delete (archive), list. client_key is unique within the organization
// and can be set once; start/stop times are optional, stop needs a start.
import { randomUUID } from 'node:crypto';
import type { CreateAdhocRunInput, CreateRunInput, Run, RunPatch } from '../../../src-shared/api/runs';
import type { MetadataValueInput } from '../../../src-shared/api/metadata';
import { formatDuration, formatTimestamp, nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { resolveOrganization, visibleTo, type Caller } from '../../auth/caller';
import { loadByPks, loadLists, loadMetadata } from '../../db/childRows';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { runListSpec } from './listSpecs';
import { ensureTags, resolveAssetNames } from './resolve';
import { organizationScope } from './scope';
import { checkMask } from './updateMask';
import { insertRun as insertRunRow, replaceRunAssets, replaceRunMetadata, replaceRunTags, setRunColumns } from './referenceStores';

interface RunRow {
  pk: number;
  id: string;
  organization_id: string;
  name: string;
  description: string;
  start_time: number | null;
  stop_time: number | null;
  is_pinned: number;
  client_key: string | null;
  default_report_id: string;
  is_adhoc: number;
  created_date: number;
  created_by_user_id: string;
  modified_date: number;
  modified_by_user_id: string;
  archived_date: number | null;
}

const UPDATABLE_PATHS = [
  'name',
  'description',
  'start_time',
  'stop_time',
  'is_pinned',
  'client_key',
  'tags',
  'is_archived',
  'metadata',
] as const;
const IMMUTABLE_PATHS = new Set([
  'run_id',
  'organization_id',
  'created_date',
  'modified_date',
  'created_by_user_id',
  'modified_by_user_id',
  'default_report_id',
  'asset_ids',
  'archived_date',
  'is_adhoc',
  'duration',
]);

export function loadRuns(db: Db, pks: readonly number[]): Run[] {
  const rows = loadByPks<RunRow>(db, 'runs', pks);
  const tags = loadLists(db, 'run_tags', 'run_pk', 'tag_name', pks);
  const assets = loadLists(db, 'run_assets', 'run_pk', 'asset_id', pks);
  const metadata = loadMetadata(db, 'run_metadata', 'run_pk', pks);
  const now = Date.now() * 1000;
  return rows.map((r) => {
    const run: Run = {
      runId: r.id,
      createdDate: formatTimestamp(r.created_date),
      modifiedDate: formatTimestamp(r.modified_date),
      createdByUserId: r.created_by_user_id,
      modifiedByUserId: r.modified_by_user_id,
      organizationId: r.organization_id,
      isPinned: r.is_pinned === 1,
      name: r.name,
      description: r.description,
      tags: tags.get(r.pk) ?? [],
      defaultReportId: r.default_report_id,
      metadata: metadata.get(r.pk) ?? [],
      assetIds: assets.get(r.pk) ?? [],
      isAdhoc: r.is_adhoc === 1,
      isArchived: r.archived_date !== null,
    };
    // proto3 `optional` fields are omitted when unset (reference §1.4).
    if (r.start_time !== null) run.startTime = formatTimestamp(r.start_time);
    if (r.stop_time !== null) run.stopTime = formatTimestamp(r.stop_time);
    if (r.client_key !== null) run.clientKey = r.client_key;
    if (r.archived_date !== null) run.archivedDate = formatTimestamp(r.archived_date);
    if (r.start_time !== null) run.duration = formatDuration(Math.max(0, (r.stop_time ?? now) - r.start_time));
    return run;
  });
}

function findVisibleRun(ctx: RequestContext, runId: string): RunRow {
  const scope = visibleTo(ctx.caller, 'organization_id');
  const row = ctx.db.get<RunRow>(`SELECT * FROM runs WHERE id = ? AND ${scope.sql}`, [runId, ...scope.params]);
  if (!row) throw ApiError.notFound('run', runId);
  return row;
}

function checkTimes(start: number | null | undefined, stop: number | null | undefined, prefix = ''): void {
  const has = (v: number | null | undefined): v is number => v !== null && v !== undefined;
  if (has(stop) && !has(start)) throw ApiError.invalid(`${prefix}stop_time`, 'requires start_time');
  if (has(stop) && has(start) && stop < start) throw ApiError.invalid(`${prefix}stop_time`, 'must not be before start_time');
}

function checkClientKeyFree(db: Db, organizationId: string, clientKey: string, field: string): void {
  if (clientKey === '') throw ApiError.invalid(field, 'must not be empty when set');
  if (db.get('SELECT 1 FROM runs WHERE organization_id = ? AND client_key = ?', [organizationId, clientKey])) {
    throw ApiError.alreadyExists('run', clientKey, `a run with client_key '${clientKey}' already exists`);
  }
}

interface NewRun {
  organizationId: string;
  name: string;
  description: string;
  startTime: number | null;
  stopTime: number | null;
  clientKey: string | null;
  isAdhoc: boolean;
  tags: readonly string[];
  metadata: readonly MetadataValueInput[];
  assetIds: readonly string[];
}

function insertRun(db: Db, caller: Caller, run: NewRun): { run: Run } {
  if (run.clientKey !== null) checkClientKeyFree(db, run.organizationId, run.clientKey, 'client_key');
  const tags = ensureTags(db, run.organizationId, caller.userId, run.tags);
  const now = nowMicros();
  const pk = insertRunRow(db, {
    id: randomUUID(),
    organization_id: run.organizationId,
    name: run.name,
    description: run.description,
    start_time: run.startTime,
    stop_time: run.stopTime,
    client_key: run.clientKey,
    is_adhoc: run.isAdhoc ? 1 : 0,
    created_date: now,
    created_by_user_id: caller.userId,
    modified_date: now,
    modified_by_user_id: caller.userId,
  })!;
  replaceRunTags(db, pk, tags);
  replaceRunAssets(db, pk, run.assetIds);
  replaceRunMetadata(db, pk, run.metadata);
  return { run: loadRuns(db, [pk])[0] };
}

export function createRun(ctx: RequestContext, req: CreateRunInput): { run: Run } {
  const organizationId = resolveOrganization(ctx.caller, req.organizationId);
  checkTimes(req.startTime, req.stopTime);
  return ctx.db.tx(() =>
    insertRun(ctx.db, ctx.caller, {
      organizationId,
      name: req.name,
      description: req.description ?? '',
      startTime: req.startTime ?? null,
      stopTime: req.stopTime ?? null,
      clientKey: req.clientKey ?? null,
      isAdhoc: false,
      tags: req.tags ?? [],
      metadata: req.metadata ?? [],
      assetIds: [],
    }),
  );
}

/** The organization of an ad hoc run: the requested one, else that of its assets (which must all share one). */
function adhocOrganization(ctx: RequestContext, req: CreateAdhocRunInput): string {
  const requested = req.organizationId ? resolveOrganization(ctx.caller, req.organizationId) : undefined;
  const scope = requested ? { sql: 'organization_id = ?', params: [requested] } : visibleTo(ctx.caller, 'organization_id');
  const ids = [...new Set(req.assetIds)];
  const rows = ctx.db.all<{ id: string; organization_id: string }>(
    `SELECT id, organization_id FROM assets WHERE id IN (SELECT value FROM json_each(?)) AND ${scope.sql}`,
    [JSON.stringify(ids), ...scope.params],
  );
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length)
    throw ApiError.invalid('asset_ids', `unknown asset${missing.length > 1 ? 's' : ''}: ${missing.map((m) => `'${m}'`).join(', ')}`);
  const orgs = new Set(rows.map((r) => r.organization_id));
  if (orgs.size > 1) throw ApiError.invalid('asset_ids', 'the assets belong to different organizations');
  return requested ?? [...orgs][0];
}

export function createAdhocRun(ctx: RequestContext, req: CreateAdhocRunInput): { run: Run } {
  checkTimes(req.startTime, req.stopTime);
  return ctx.db.tx(() =>
    insertRun(ctx.db, ctx.caller, {
      organizationId: adhocOrganization(ctx, req),
      name: req.name,
      description: req.description ?? '',
      startTime: req.startTime,
      stopTime: req.stopTime,
      clientKey: req.clientKey ?? null,
      isAdhoc: true,
      tags: req.tags ?? [],
      metadata: req.metadata ?? [],
      assetIds: [...new Set(req.assetIds)],
    }),
  );
}

export function getRun(ctx: RequestContext, runId: string): { run: Run } {
  return { run: loadRuns(ctx.db, [findVisibleRun(ctx, runId).pk])[0] };
}

export function updateRun(ctx: RequestContext, patch: RunPatch, mask: readonly string[]): { run: Run } {
  const { db, caller } = ctx;
  const paths = checkMask(mask, UPDATABLE_PATHS, IMMUTABLE_PATHS);
  return db.tx(() => {
    const row = findVisibleRun(ctx, patch.runId);
    const next: RunRow = { ...row };
    const now = nowMicros();
    if (paths.has('name')) {
      if (!patch.name) throw ApiError.invalid('run.name', 'must not be empty');
      next.name = patch.name;
    }
    if (paths.has('description')) next.description = patch.description ?? '';
    // start_time / stop_time are proto3 optional: named in the mask but unset clears them.
    if (paths.has('start_time')) next.start_time = patch.startTime ?? null;
    if (paths.has('stop_time')) next.stop_time = patch.stopTime ?? null;
    checkTimes(next.start_time, next.stop_time, 'run.');
    if (paths.has('is_pinned')) next.is_pinned = patch.isPinned ? 1 : 0;
    if (paths.has('client_key') && patch.clientKey !== row.client_key) {
      // Settable once: at creation or by the first update that names it.
      if (row.client_key !== null) throw ApiError.invalid('run.client_key', `is already set ('${row.client_key}') and cannot be changed`);
      if (patch.clientKey !== undefined) {
        checkClientKeyFree(db, row.organization_id, patch.clientKey, 'run.client_key');
        next.client_key = patch.clientKey;
      }
    }
    if (paths.has('is_archived')) next.archived_date = patch.isArchived ? (row.archived_date ?? now) : null;
    setRunColumns(db, row.pk, {
      name: next.name,
      description: next.description,
      start_time: next.start_time,
      stop_time: next.stop_time,
      is_pinned: next.is_pinned,
      client_key: next.client_key,
      archived_date: next.archived_date,
      modified_date: now,
      modified_by_user_id: caller.userId,
    });
    if (paths.has('tags')) replaceRunTags(db, row.pk, ensureTags(db, row.organization_id, caller.userId, patch.tags ?? [], 'run.tags'));
    if (paths.has('metadata')) replaceRunMetadata(db, row.pk, patch.metadata ?? [], 'run.metadata');
    return { run: loadRuns(db, [row.pk])[0] };
  });
}

/** StopRun: stop_time = now for a started, not yet stopped run. */
export function stopRun(ctx: RequestContext, runId: string): Record<string, never> {
  return ctx.db.tx(() => {
    const row = findVisibleRun(ctx, runId);
    if (row.start_time === null) throw ApiError.failedPrecondition(`run ${runId} has not started (start_time is unset)`);
    if (row.stop_time !== null) throw ApiError.failedPrecondition(`run ${runId} is already stopped`);
    const now = nowMicros();
    // A start time set in the future would otherwise leave stop before start.
    setRunColumns(ctx.db, row.pk, { stop_time: Math.max(now, row.start_time), modified_date: now, modified_by_user_id: ctx.caller.userId });
    return {};
  });
}

/** DeleteRun (deprecated): archives a stopped run. */
export function deleteRun(ctx: RequestContext, runId: string): Record<string, never> {
  return ctx.db.tx(() => {
    const row = findVisibleRun(ctx, runId);
    if (row.stop_time === null) throw ApiError.failedPrecondition(`run ${runId} must be stopped (stop_time set) before it can be deleted`);
    if (row.archived_date === null) {
      const now = nowMicros();
      setRunColumns(ctx.db, row.pk, { archived_date: now, modified_date: now, modified_by_user_id: ctx.caller.userId });
    }
    return {};
  });
}

export function listRuns(ctx: RequestContext, req: ListParams & { organizationId?: string }) {
  const scope = organizationScope(ctx.caller, req.organizationId);
  const page = listPage(ctx.db, runListSpec, req, { ...scope, gate: ctx.rowGate }, ctx.engine.pageTokenSecret);
  return { runs: loadRuns(ctx.db, page.keys), nextPageToken: page.nextPageToken };
}

/**
 * CreateAutomaticRunAssociationForAssets: the named assets (of the run's organization) join the run's asset_ids. An
 * asset already in another run whose period (start_time to stop_time, open while running) overlaps this run's is
 * refused, as the platform documents; a run without a start time has no period and overlaps nothing.
 */
export function associateAssetsWithRun(ctx: RequestContext, runId: string, assetNames: readonly string[]): Record<string, never> {
  const { db, caller } = ctx;
  return db.tx(() => {
    const row = findVisibleRun(ctx, runId);
    const assetIds = resolveAssetNames(db, row.organization_id, assetNames, 'asset_names');
    if (row.start_time !== null) {
      const clash = db.get<{ asset_name: string; run_id: string }>(
        `SELECT a.name AS asset_name, r.id AS run_id FROM run_assets ra JOIN runs r ON r.pk = ra.run_pk JOIN assets a ON a.id = ra.asset_id
         WHERE ra.asset_id IN (SELECT value FROM json_each(?)) AND r.pk != ? AND r.archived_date IS NULL AND r.start_time IS NOT NULL
           AND r.start_time < COALESCE(?, 9223372036854775807) AND ? < COALESCE(r.stop_time, 9223372036854775807)
         ORDER BY a.name LIMIT 1`,
        [JSON.stringify(assetIds), row.pk, row.stop_time, row.start_time],
      );
      if (clash)
        throw ApiError.invalid(
          'asset_names',
          `asset '${clash.asset_name}' is already associated with run '${clash.run_id}', whose period overlaps this run's`,
        );
    }
    const current = loadLists(db, 'run_assets', 'run_pk', 'asset_id', [row.pk]).get(row.pk) ?? [];
    if (replaceRunAssets(db, row.pk, [...new Set([...current, ...assetIds])]))
      setRunColumns(db, row.pk, { modified_date: nowMicros(), modified_by_user_id: caller.userId });
    return {};
  });
}
