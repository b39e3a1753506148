// Assets (reference §11.1): create, get, update by mask, archive, list.
// The name is unique within the organization; tags are names, created on first use.
import { randomUUID } from 'node:crypto';
import type { Asset, AssetPatch, CreateAssetInput } from '../../../src-shared/api/assets';
import { formatOptionalTimestamp, formatTimestamp, nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { resolveOrganization, visibleTo } from '../../auth/caller';
import { loadByPks, loadLists, loadMetadata } from '../../db/childRows';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { assetListSpec } from './listSpecs';
import { ensureTags } from './resolve';
import { organizationScope } from './scope';
import { checkMask } from './updateMask';
import { insertAsset, replaceAssetMetadata, replaceAssetTags, setAssetColumns, setRunColumns } from './referenceStores';

interface AssetRow {
  pk: number;
  id: string;
  organization_id: string;
  name: string;
  created_date: number;
  created_by_user_id: string;
  modified_date: number;
  modified_by_user_id: string;
  archived_date: number | null;
}

const UPDATABLE_PATHS = ['tags', 'metadata', 'archived_date', 'is_archived'] as const;
const IMMUTABLE_PATHS = new Set([
  'asset_id',
  'name',
  'organization_id',
  'created_date',
  'created_by_user_id',
  'modified_date',
  'modified_by_user_id',
]);

export function loadAssets(db: Db, pks: readonly number[]): Asset[] {
  const rows = loadByPks<AssetRow>(db, 'assets', pks);
  const tags = loadLists(db, 'asset_tags', 'asset_pk', 'tag_name', pks);
  const metadata = loadMetadata(db, 'asset_metadata', 'asset_pk', pks);
  return rows.map((r) => ({
    assetId: r.id,
    name: r.name,
    organizationId: r.organization_id,
    createdDate: formatTimestamp(r.created_date),
    createdByUserId: r.created_by_user_id,
    modifiedDate: formatTimestamp(r.modified_date),
    modifiedByUserId: r.modified_by_user_id,
    tags: tags.get(r.pk) ?? [],
    metadata: metadata.get(r.pk) ?? [],
    archivedDate: formatOptionalTimestamp(r.archived_date),
    isArchived: r.archived_date !== null,
  }));
}

/** An asset of one of the caller's organizations; anything else is NOT_FOUND. */
function findVisibleAsset(ctx: RequestContext, assetId: string): AssetRow {
  const scope = visibleTo(ctx.caller, 'organization_id');
  const row = ctx.db.get<AssetRow>(`SELECT * FROM assets WHERE id = ? AND ${scope.sql}`, [assetId, ...scope.params]);
  if (!row) throw ApiError.notFound('asset', assetId);
  return row;
}

export function createAsset(ctx: RequestContext, req: CreateAssetInput): { asset: Asset } {
  const { db, caller } = ctx;
  const organizationId = resolveOrganization(caller, req.organizationId);
  return db.tx(() => {
    if (db.get('SELECT 1 FROM assets WHERE organization_id = ? AND name = ?', [organizationId, req.name])) {
      throw ApiError.alreadyExists('asset', req.name, `an asset named '${req.name}' already exists`);
    }
    const tags = ensureTags(db, organizationId, caller.userId, req.tags ?? []);
    const now = nowMicros();
    const pk = insertAsset(db, {
      id: randomUUID(),
      organization_id: organizationId,
      name: req.name,
      created_date: now,
      created_by_user_id: caller.userId,
      modified_date: now,
      modified_by_user_id: caller.userId,
    })!;
    replaceAssetTags(db, pk, tags);
    replaceAssetMetadata(db, pk, req.metadata ?? []);
    return { asset: loadAssets(db, [pk])[0] };
  });
}

export function getAsset(ctx: RequestContext, assetId: string): { asset: Asset } {
  return { asset: loadAssets(ctx.db, [findVisibleAsset(ctx, assetId).pk])[0] };
}

export function updateAsset(ctx: RequestContext, patch: AssetPatch, mask: readonly string[]): { asset: Asset } {
  const { db, caller } = ctx;
  const paths = checkMask(mask, UPDATABLE_PATHS, IMMUTABLE_PATHS);
  return db.tx(() => {
    const row = findVisibleAsset(ctx, patch.assetId);
    const now = nowMicros();
    let archived = row.archived_date;
    // archived_date sets (or, unset, clears) the date; is_archived toggles it, keeping an existing date.
    if (paths.has('archived_date')) archived = patch.archivedDate ?? null;
    if (paths.has('is_archived')) {
      const want = patch.isArchived ?? false;
      if (paths.has('archived_date') && want !== (archived !== null)) {
        throw ApiError.invalid(
          'asset.is_archived',
          `contradicts asset.archived_date (is_archived=${want} but archived_date is ${archived === null ? 'unset' : 'set'})`,
        );
      }
      archived = want ? (archived ?? now) : null;
    }
    setAssetColumns(db, row.pk, { archived_date: archived, modified_date: now, modified_by_user_id: caller.userId });
    if (paths.has('tags')) replaceAssetTags(db, row.pk, ensureTags(db, row.organization_id, caller.userId, patch.tags ?? [], 'asset.tags'));
    if (paths.has('metadata')) replaceAssetMetadata(db, row.pk, patch.metadata ?? [], 'asset.metadata');
    return { asset: loadAssets(db, [row.pk])[0] };
  });
}

/** Archives the asset (idempotent) and, when asked, its not yet archived runs; returns those runs' ids. */
export function archiveAsset(ctx: RequestContext, assetId: string, archiveRuns: boolean): { archivedRunIds: string[] } {
  const { db, caller } = ctx;
  return db.tx(() => {
    const row = findVisibleAsset(ctx, assetId);
    const now = nowMicros();
    if (row.archived_date === null) {
      setAssetColumns(db, row.pk, { archived_date: now, modified_date: now, modified_by_user_id: caller.userId });
    }
    if (!archiveRuns) return { archivedRunIds: [] };
    const runs = db.all<{ pk: number; id: string }>(
      `SELECT r.pk, r.id FROM run_assets ra JOIN runs r ON r.pk = ra.run_pk
       WHERE ra.asset_id = ? AND r.organization_id = ? AND r.archived_date IS NULL ORDER BY r.created_date, r.pk`,
      [row.id, row.organization_id],
    );
    for (const r of runs) {
      setRunColumns(db, r.pk, { archived_date: now, modified_date: now, modified_by_user_id: caller.userId });
    }
    return { archivedRunIds: runs.map((r) => r.id) };
  });
}

export function listAssets(ctx: RequestContext, req: ListParams & { organizationId?: string }) {
  const scope = organizationScope(ctx.caller, req.organizationId);
  const page = listPage(ctx.db, assetListSpec, req, { ...scope, gate: ctx.rowGate }, ctx.engine.pageTokenSecret);
  return { assets: loadAssets(ctx.db, page.keys), nextPageToken: page.nextPageToken };
}
