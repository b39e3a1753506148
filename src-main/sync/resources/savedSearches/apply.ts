// Saved searches as a replicated resource. Synced fields: `name` and each
// property (`properties.<name>`, the update_mask sub-paths), so two people
// changing different filters of one search both keep their change. Delete is
// a hard delete upstream (no tombstones): a full pull reconciles deletions.
import { SAVED_SEARCH_PROPERTY_PATHS, SavedSearchPropertiesPatchIn, type SavedSearch } from '../../../../src-shared/api/savedSearches';
import { snakeToCamel } from '../../../../src-shared/api/wire';
import type { Db } from '../../../db/database';
import {
  emptyProperties,
  patchProperties,
  propertiesFromInput,
  propertiesToWire,
  type PropertyPath,
  type StoredProperties,
} from '../../../services/savedSearches/savedSearchProperties';
import { storedState, type Applier, type ApplyContext, type ApplyOptions } from '../../apply';
import { canonical, sameValue } from '../../canonical';
import { adoptInflightCreate, madeSince } from '../../inflightCreates';
import { mergeFields } from '../../merge';
import { hasPending } from '../../outbox';
import { wireMicros } from '../../time';
import { setSavedSearchColumns, upsertSavedSearch } from '../../../services/savedSearches/savedSearchStore';
import { ensureOrganization } from '../../identity';

export const SAVED_SEARCH = 'saved_search';

export const propertyField = (path: string) => `properties.${path}`;
export const SAVED_SEARCH_FIELDS = ['name', ...SAVED_SEARCH_PROPERTY_PATHS.map(propertyField)];

interface Row {
  pk: number;
  id: string;
  name: string;
  properties: string;
  modified_date: number;
}

/** Synced fields from a wire saved search (property values in wire form; absent optionals as null). */
export function savedSearchFields(s: Pick<SavedSearch, 'name' | 'properties'>): Record<string, unknown> {
  const props = s.properties as Record<string, unknown>;
  const out: Record<string, unknown> = { name: s.name };
  for (const p of SAVED_SEARCH_PROPERTY_PATHS) out[propertyField(p)] = props[snakeToCamel(p)] ?? null;
  return out;
}

function rowFields(r: Row): Record<string, unknown> {
  return savedSearchFields({ name: r.name, properties: propertiesToWire(JSON.parse(r.properties) as StoredProperties) });
}

const rowOf = (db: Db, id: string) => db.get<Row>('SELECT pk, id, name, properties, modified_date FROM saved_searches WHERE id = ?', [id]);

export function snapshotSavedSearch(db: Db, id: string): { version: number; fields: Record<string, unknown> } | undefined {
  const r = rowOf(db, id);
  return r && { version: r.modified_date, fields: rowFields(r) };
}

/** Wire properties -> the stored document (through the request schema, as the service would store them). */
function storedFrom(
  properties: SavedSearch['properties'],
  current: StoredProperties = emptyProperties(),
  paths: readonly PropertyPath[] = SAVED_SEARCH_PROPERTY_PATHS,
): StoredProperties {
  return patchProperties(current, SavedSearchPropertiesPatchIn.parse(properties), paths);
}

/** Everything a pull may write of one saved search. */
const stateOf = (db: Db, id: string) => storedState(db, [['SELECT * FROM saved_searches WHERE id = ?', [id]]]);

function upsertRow(db: Db, s: SavedSearch): void {
  ensureOrganization(db, s.organizationId);
  upsertSavedSearch(db, {
    id: s.savedSearchId,
    organization_id: s.organizationId,
    name: s.name,
    properties: JSON.stringify(storedFrom(s.properties)),
    created_by_user_id: s.createdByUserId,
    modified_by_user_id: s.modifiedByUserId,
    created_date: wireMicros(s.createdDate),
    modified_date: wireMicros(s.modifiedDate),
  });
}

/**
 * Whether remote search `s` is the copy a create of ours may have made (a create carries no marker): ours, made at or
 * after the create first left (`since`, server micros), with the name and properties the create sent. The push's
 * lookup after an unknown outcome and the pull's adoption (inflightCreates.ts) ask this first.
 */
export function isCopyOfCreate(
  request: { name: string; properties: unknown },
  since: number | null,
  s: SavedSearch,
  userId: string,
): boolean {
  if (!madeSince(s, since, userId)) return false;
  const sent = savedSearchFields({ name: request.name, properties: propertiesToWire(propertiesFromInput(request.properties as never)) });
  return canonical(savedSearchFields(s)) === canonical(sent);
}

export function applySavedSearches(ctx: ApplyContext, list: readonly SavedSearch[]): void {
  const { db } = ctx;
  for (const s of list) {
    // (A copy left for the push's lookup is taken in by a later pull if that lookup does not claim it: the list is read whole.)
    if (!rowOf(db, s.savedSearchId)) {
      const arrival = adoptInflightCreate(
        ctx,
        'CreateSavedSearch',
        SAVED_SEARCH,
        { ...s, id: s.savedSearchId },
        (req: Parameters<typeof isCopyOfCreate>[0], since) => isCopyOfCreate(req, since, s, ctx.userId),
      );
      if (arrival === 'left') continue;
    }
    const row = rowOf(db, s.savedSearchId);
    if (!row || !hasPending(db, SAVED_SEARCH, row.id, ctx.excludeSeq)) {
      if (row && row.modified_date === wireMicros(s.modifiedDate)) {
        ctx.stats.unchanged++;
        continue;
      }
      upsertRow(db, s);
      if (row) db.run('DELETE FROM sync_base WHERE resource = ? AND record_id = ?', [SAVED_SEARCH, row.id]);
      // Counted as news only if a synced field differs: our own pushed edit comes back with the server's dates.
      if (!row) ctx.stats.inserted++;
      else if (sameValue(rowFields(row), savedSearchFields(s))) ctx.stats.unchanged++;
      else ctx.stats.updated++;
      continue;
    }
    // Merged: counted as updated only when something was written (a re-read of the version already merged writes nothing).
    const before = stateOf(db, row.id);
    const remote = savedSearchFields(s);
    const stillPending = mergeFields(ctx, {
      resource: SAVED_SEARCH,
      recordId: row.id,
      local: rowFields(row),
      remote,
      remoteTime: wireMicros(s.modifiedDate) ?? 0,
      write(field, value) {
        const current = rowOf(db, row.id)!;
        if (field === 'name') {
          setSavedSearchColumns(db, row.pk, { name: String(value) });
          return;
        }
        const path = field.slice('properties.'.length) as PropertyPath;
        const next = storedFrom({ [snakeToCamel(path)]: value ?? undefined } as never, JSON.parse(current.properties) as StoredProperties, [
          path,
        ]);
        setSavedSearchColumns(db, row.pk, { properties: JSON.stringify(next) });
      },
    });
    if (!stillPending)
      setSavedSearchColumns(db, row.pk, { modified_date: wireMicros(s.modifiedDate), modified_by_user_id: s.modifiedByUserId });
    if (stateOf(db, row.id) !== before) ctx.stats.updated++;
    else ctx.stats.unchanged++;
  }
}

/** Applies remote saved searches in their own transaction (pull pages, push results). */
export function applyRemoteSavedSearches(applier: Applier, list: readonly SavedSearch[], options: ApplyOptions = {}): void {
  applier.db.tx(() => applySavedSearches(applier.context(options), list));
}
