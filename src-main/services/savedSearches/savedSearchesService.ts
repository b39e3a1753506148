// Saved searches: create, get, update (name / properties / single properties by
// mask), list, delete and batch delete. Delete is a hard delete: a SavedSearch
// has no archived state. Names are required but need not be unique.
import { randomUUID } from 'node:crypto';
import {
  SAVED_SEARCH_PROPERTY_PATHS,
  type CreateSavedSearchInput,
  type SavedSearch,
  type SavedSearchPatch,
} from '../../../src-shared/api/savedSearches';
import { formatTimestamp, nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { resolveOrganization, visibleTo } from '../../auth/caller';
import { loadByPks } from '../../db/childRows';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { savedSearchListSpec } from './savedSearchListSpec';
import { deleteSavedSearchesByPk, insertSavedSearch, setSavedSearchColumns } from './savedSearchStore';
import { patchProperties, propertiesFromInput, propertiesToWire, type PropertyPath, type StoredProperties } from './savedSearchProperties';

export const MAX_BATCH = 1000;

interface SavedSearchRow {
  pk: number;
  id: string;
  organization_id: string;
  name: string;
  properties: string;
  created_by_user_id: string;
  modified_by_user_id: string;
  created_date: number;
  modified_date: number;
}

const IMMUTABLE_PATHS = new Set([
  'saved_search_id',
  'organization_id',
  'created_by_user_id',
  'modified_by_user_id',
  'created_date',
  'modified_date',
]);

function toWire(r: SavedSearchRow): SavedSearch {
  return {
    savedSearchId: r.id,
    organizationId: r.organization_id,
    name: r.name,
    properties: propertiesToWire(JSON.parse(r.properties) as StoredProperties),
    createdByUserId: r.created_by_user_id,
    modifiedByUserId: r.modified_by_user_id,
    createdDate: formatTimestamp(r.created_date),
    modifiedDate: formatTimestamp(r.modified_date),
  };
}

export const loadSavedSearches = (db: Db, pks: readonly number[]) => loadByPks<SavedSearchRow>(db, 'saved_searches', pks).map(toWire);

function findVisible(ctx: RequestContext, id: string): SavedSearchRow {
  const scope = visibleTo(ctx.caller, 'organization_id');
  const row = ctx.db.get<SavedSearchRow>(`SELECT * FROM saved_searches WHERE id = ? AND ${scope.sql}`, [id, ...scope.params]);
  if (!row) throw ApiError.notFound('saved_search', id);
  return row;
}

export function createSavedSearch(ctx: RequestContext, req: CreateSavedSearchInput): { savedSearch: SavedSearch } {
  const { db, caller } = ctx;
  const organizationId = resolveOrganization(caller, req.organizationId);
  if (req.name.trim() === '') throw ApiError.invalid('name', 'must not be blank');
  const properties = JSON.stringify(propertiesFromInput(req.properties));
  return db.tx(() => {
    const now = nowMicros();
    const pk = insertSavedSearch(db, {
      id: randomUUID(),
      organization_id: organizationId,
      name: req.name,
      properties,
      created_by_user_id: caller.userId,
      modified_by_user_id: caller.userId,
      created_date: now,
      modified_date: now,
    });
    return { savedSearch: loadSavedSearches(db, [pk])[0] };
  });
}

export function getSavedSearch(ctx: RequestContext, id: string): { savedSearch: SavedSearch } {
  return { savedSearch: toWire(findVisible(ctx, id)) };
}

interface MaskPlan {
  name: boolean;
  /** `properties` as a whole (replaces every property). */
  allProperties: boolean;
  /** `properties.<field>` sub-paths (replace just those). */
  properties: PropertyPath[];
}

function checkMask(paths: readonly string[] = []): MaskPlan {
  if (paths.length === 0)
    throw ApiError.invalid('update_mask', 'is required: name the fields to update (name, properties or properties.<field>)');
  const plan: MaskPlan = { name: false, allProperties: false, properties: [] };
  for (const p of paths) {
    if (p === 'name') plan.name = true;
    else if (p === 'properties') plan.allProperties = true;
    else if (p.startsWith('properties.')) {
      const sub = p.slice('properties.'.length);
      if (!(SAVED_SEARCH_PROPERTY_PATHS as readonly string[]).includes(sub)) {
        throw ApiError.invalid('update_mask', `unknown field '${p}'; properties has: ${SAVED_SEARCH_PROPERTY_PATHS.join(', ')}`);
      }
      if (!plan.properties.includes(sub as PropertyPath)) plan.properties.push(sub as PropertyPath);
    } else if (IMMUTABLE_PATHS.has(p)) throw ApiError.invalid('update_mask', `field '${p}' cannot be updated`);
    else throw ApiError.invalid('update_mask', `unknown field '${p}'; updatable fields: name, properties, properties.<field>`);
  }
  return plan;
}

export function updateSavedSearch(
  ctx: RequestContext,
  patch: SavedSearchPatch,
  mask: readonly string[] | undefined,
): { savedSearch: SavedSearch } {
  const { db, caller } = ctx;
  const plan = checkMask(mask);
  let name: string | undefined;
  if (plan.name) {
    if (!patch.name || patch.name.trim() === '') throw ApiError.invalid('saved_search.name', 'must not be empty');
    name = patch.name;
  }
  const input = patch.properties;
  if (plan.allProperties && !input) throw ApiError.invalid('saved_search.properties', 'is required when named in update_mask');
  const touchesOverview = plan.allProperties || plan.properties.includes('overview_mode');
  if (touchesOverview && !input?.overviewMode) throw ApiError.invalid('saved_search.properties.overview_mode', 'must not be empty');
  return db.tx(() => {
    const row = findVisible(ctx, patch.savedSearchId);
    let properties = JSON.parse(row.properties) as StoredProperties;
    if (plan.allProperties) properties = propertiesFromInput(input!);
    else if (plan.properties.length) properties = patchProperties(properties, input ?? {}, plan.properties);
    setSavedSearchColumns(db, row.pk, {
      name: name ?? row.name,
      properties: JSON.stringify(properties),
      modified_by_user_id: caller.userId,
      modified_date: nowMicros(),
    });
    return { savedSearch: loadSavedSearches(db, [row.pk])[0] };
  });
}

export function listSavedSearches(ctx: RequestContext, req: ListParams & { organizationId?: string }) {
  const organizationId = resolveOrganization(ctx.caller, req.organizationId);
  const page = listPage(
    ctx.db,
    savedSearchListSpec,
    req,
    { sql: 't.organization_id = ?', params: [organizationId], fingerprint: [organizationId], gate: ctx.rowGate },
    ctx.engine.pageTokenSecret,
  );
  return { savedSearches: loadSavedSearches(ctx.db, page.keys), nextPageToken: page.nextPageToken };
}

/** Deletes every id (deduplicated) or none: an unknown id fails the whole batch, naming the missing ones. */
export function deleteSavedSearches(ctx: RequestContext, ids: readonly string[], field = 'saved_search_ids'): void {
  if (ids.length > MAX_BATCH) throw ApiError.invalid(field, `at most ${MAX_BATCH} ids per batch`);
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const scope = visibleTo(ctx.caller, 'organization_id');
  ctx.db.tx(() => {
    const rows = ctx.db.all<{ pk: number; id: string }>(
      `SELECT pk, id FROM saved_searches WHERE id IN (SELECT value FROM json_each(?)) AND ${scope.sql}`,
      [JSON.stringify(unique), ...scope.params],
    );
    const found = new Set(rows.map((r) => r.id));
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length) throw ApiError.notFound('saved_search', missing.join(', '));
    deleteSavedSearchesByPk(
      ctx.db,
      rows.map((r) => r.pk),
    );
  });
}
