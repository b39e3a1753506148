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
import { canonical } from '../../canonical';
import { adoptInflightCreate, madeSince } from '../../inflightCreates';
import { forgetBase } from '../../merge';
import { differing, localFields, mergeRecord, syncedFields, type RecordShape, type SyncedField } from '../../recordShape';
import { hasPending } from '../../outbox';
import { wireMicros } from '../../time';
import { setSavedSearchColumns, upsertSavedSearch } from '../../../services/savedSearches/savedSearchStore';
import { loadSavedSearches } from '../../../services/savedSearches/savedSearchesService';
import { ensureOrganization } from '../../identity';

export const SAVED_SEARCH = 'saved_search';

export const propertyField = (path: string) => `properties.${path}`;

type SavedSearchValues = Pick<SavedSearch, 'name' | 'properties'>;

/**
 * One property's field: its wire value (null when unset). Properties share one column, a JSON document: a field
 * written alone is patched into the row's document.
 */
function property(path: PropertyPath): SyncedField<SavedSearchValues> {
  const member = snakeToCamel(path);
  const of = (s: SavedSearchValues) => (s.properties as Record<string, unknown>)[member] ?? null;
  return {
    of,
    rows(db, pk, s) {
      const current = db.get<{ properties: string }>('SELECT properties FROM saved_searches WHERE pk = ?', [pk])!;
      const next = storedFrom({ [member]: of(s) ?? undefined } as never, JSON.parse(current.properties) as StoredProperties, [path]);
      setSavedSearchColumns(db, pk, { properties: JSON.stringify(next) });
    },
  };
}

/** A saved search's synced fields: its name and each property (property values in wire form). */
export const SAVED_SEARCH_SHAPE: RecordShape<SavedSearchValues> = {
  kind: SAVED_SEARCH,
  table: 'saved_searches',
  load: loadSavedSearches,
  setColumns: setSavedSearchColumns,
  fields: {
    name: { of: (s) => s.name, columns: (s) => ({ name: s.name }) },
    ...Object.fromEntries(SAVED_SEARCH_PROPERTY_PATHS.map((p) => [propertyField(p), property(p)])),
  },
};

/** Synced fields of a wire saved search. */
export const savedSearchFields = (s: SavedSearchValues) => syncedFields(SAVED_SEARCH_SHAPE, s);

const localRow = (db: Db, id: string) =>
  db.get<{ pk: number; id: string; modified_date: number }>('SELECT pk, id, modified_date FROM saved_searches WHERE id = ?', [id]);

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

function applySavedSearch(ctx: ApplyContext, s: SavedSearch): void {
  const { db } = ctx;
  // (A copy left for the push's lookup is taken in by a later pull if that lookup does not claim it: the list is read whole.)
  if (!localRow(db, s.savedSearchId)) {
    const arrival = adoptInflightCreate(
      ctx,
      'CreateSavedSearch',
      SAVED_SEARCH,
      { ...s, id: s.savedSearchId },
      (req: Parameters<typeof isCopyOfCreate>[0], since) => isCopyOfCreate(req, since, s, ctx.userId),
    );
    if (arrival === 'left') return;
  }
  const row = localRow(db, s.savedSearchId);
  if (!row || !hasPending(db, SAVED_SEARCH, row.id, ctx.excludeSeq)) {
    if (row && row.modified_date === wireMicros(s.modifiedDate)) {
      ctx.stats.unchanged++;
      return;
    }
    const local = row && localFields(SAVED_SEARCH_SHAPE, db, row.pk);
    upsertRow(db, s);
    if (row) forgetBase(db, SAVED_SEARCH, row.id);
    // Counted as news only if a synced field differs: our own pushed edit comes back with the server's dates.
    if (!row) ctx.stats.inserted++;
    else if (differing(SAVED_SEARCH_SHAPE, local!, savedSearchFields(s)).length === 0) ctx.stats.unchanged++;
    else ctx.stats.updated++;
    return;
  }
  // Merged: counted as updated only when something was written (a re-read of the version already merged writes nothing).
  const before = stateOf(db, row.id);
  mergeRecord(ctx, SAVED_SEARCH_SHAPE, row, s, wireMicros(s.modifiedDate) ?? 0);
  if (!hasPending(db, SAVED_SEARCH, row.id, ctx.excludeSeq))
    setSavedSearchColumns(db, row.pk, { modified_date: wireMicros(s.modifiedDate), modified_by_user_id: s.modifiedByUserId });
  if (stateOf(db, row.id) !== before) ctx.stats.updated++;
  else ctx.stats.unchanged++;
}

/** Applies remote saved searches in their own transaction (pull pages, push results). */
export function applyRemoteSavedSearches(applier: Applier, list: readonly SavedSearch[], options: ApplyOptions = {}): void {
  applier.db.tx(() => {
    const ctx = applier.context(options);
    for (const s of list) applySavedSearch(ctx, s);
  });
}
