// Saved searches made before the first link go to the remote organization as
// ordinary offline creates (sync/operations/preLink.ts). Their filter items
// name records by id and name: an asset, run or tag item takes the id of its
// namesake in that organization, an annotation item the id of the annotation
// adopted with it, a user item of the profile's local users the remote user;
// an item without a namesake keeps what it had (its name still shows what it meant).
import type { SavedSearch, SavedSearchProperties } from '../../../../src-shared/api/savedSearches';
import { getSavedSearch } from '../../../services/savedSearches/savedSearchesService';
import { adoptedPreLink } from '../../preLinkCount';
import type { Adoption } from '../../resource';
import { SAVED_SEARCH } from './apply';

type Item = { id: string; name: string };

/** The table a filter item's id points into, for items matched by name in the remote organization. */
const NAMED: Partial<Record<keyof SavedSearchProperties, { table: string; column: string }>> = {
  assetItems: { table: 'assets', column: 'name' },
  runItems: { table: 'runs', column: 'name' },
  tagItems: { table: 'tags', column: 'name' },
};

function remapItems(a: Adoption, key: keyof SavedSearchProperties, items: readonly Item[]): Item[] {
  const named = NAMED[key];
  return items.map((item) => {
    if (key === 'annotationItems') return { ...item, id: a.moved.get(item.id) ?? item.id };
    if (key === 'userItems') return a.localUserIds.has(item.id) ? { id: a.ctx.caller.userId, name: a.ctx.caller.userName } : item;
    if (!named) return item;
    const local = a.ctx.db.get<{ name: string }>(`SELECT ${named.column} AS name FROM ${named.table} WHERE id = ?`, [item.id]);
    const remote =
      local &&
      a.ctx.db.get<{ id: string }>(`SELECT id FROM ${named.table} WHERE organization_id = ? AND ${named.column} = ?`, [
        a.organizationId,
        local.name,
      ]);
    return remote ? { ...item, id: remote.id } : item;
  });
}

function propertiesFor(a: Adoption, s: SavedSearch): SavedSearchProperties {
  const out: Record<string, unknown> = { ...s.properties };
  for (const key of ['assetItems', 'runItems', 'tagItems', 'annotationItems', 'userItems'] as const)
    out[key] = remapItems(a, key, s.properties[key]);
  return out as SavedSearchProperties;
}

function adoptOne(a: Adoption, id: string): boolean {
  const { savedSearch: s } = getSavedSearch(a.localCtx, id);
  return a.attempt({ resource: SAVED_SEARCH, recordId: id, name: s.name }, () => {
    a.write('CreateSavedSearch', { name: s.name, properties: propertiesFor(a, s), organizationId: a.organizationId });
    a.deleteHeld([{ resource: SAVED_SEARCH, id }]);
  });
}

export const preLinkSavedSearches = adoptedPreLink(SAVED_SEARCH, 'saved searches', 'saved_searches', adoptOne);
