// How saved-search writes are recorded and replayed. A create has no field
// that could carry a marker: an unknown outcome is resolved by finding a
// search with the same name and properties, created by us at or after the
// first send, that no local record already stands for, or failing that the only
// one we made within the create's send window (a colleague may have renamed it;
// see inflightCreates.ts, which also has a pull that meets the copy adopt it).
import { CreateSavedSearchRequest, SAVED_SEARCH_PROPERTY_PATHS, type SavedSearch } from '../../../../src-shared/api/savedSearches';
import {
  emptyProperties,
  patchProperties,
  propertiesFromInput,
  propertiesToWire,
  type PropertyPath,
  type StoredProperties,
} from '../../../services/savedSearches/savedSearchProperties';
import { mapLocalId } from '../../idMap';
import { pickCopy } from '../../inflightCreates';
import { applyRemoteSavedSearches, isCopyOfCreate, propertyField, SAVED_SEARCH } from './apply';
import { getSavedSearch } from '../../../services/savedSearches/savedSearchesService';
import {
  asValidated,
  defineSpec,
  onlyNewRecords,
  retryAsAsked,
  type EntryOf,
  type OpSpec,
  type PushContext,
  type StoredRequest,
  type WireRequest,
  type WireResponse,
} from '../../spec';
import { deleteById, idsBatch, wireRequest } from '../../specForms';
import { compact, mask } from '../../wireEncode';
import { listEvery } from '../../remoteQuery';

/** Mask paths -> synced field names ('properties' stands for every property). */
const fieldsOfMask = (paths: readonly string[]) => [
  ...new Set(paths.flatMap((p) => (p === 'properties' ? SAVED_SEARCH_PROPERTY_PATHS.map(propertyField) : [p]))),
];

/** The property paths a mask names. */
const propertyPathsOf = (paths: readonly string[]) =>
  fieldsOfMask(paths).flatMap((f) => (f.startsWith('properties.') ? [f.slice('properties.'.length) as PropertyPath] : []));

async function findSavedSearch(p: PushContext, entry: EntryOf<StoredRequest<'CreateSavedSearch'>>): Promise<SavedSearch | undefined> {
  const request = { pageSize: 1000, organizationId: entry.request.organizationId };
  const all = await listEvery<SavedSearch>(p.call, 'ListSavedSearches', 'savedSearches', request);
  return pickCopy(
    all,
    (s) => s.savedSearchId,
    'saved_searches',
    p,
    entry,
    (req, since, s) => isCopyOfCreate(req, since, s, p.userId),
  );
}

export const createSavedSearchSpec = defineSpec<'CreateSavedSearch', WireResponse<'CreateSavedSearch'> | SavedSearch>({
  operation: 'CreateSavedSearch',
  ...onlyNewRecords,
  create: {
    created: (_req, res) => [{ resource: SAVED_SEARCH, id: res.savedSearch.savedSearchId }],
    find: findSavedSearch,
    refused: {
      ...retryAsAsked,
      // Retry sends the search as it is now (renamed since, perhaps).
      rebuild(ctx, id) {
        const { savedSearch: s } = getSavedSearch(ctx, id);
        return CreateSavedSearchRequest.parse({ name: s.name, properties: s.properties, organizationId: s.organizationId });
      },
    },
  },
  encode: (req) =>
    wireRequest(req, { properties: (r) => propertiesToWire(propertiesFromInput(r.properties)) }) as WireRequest<'CreateSavedSearch'>,
  applyResult(p, entry, res) {
    const s = 'savedSearch' in res ? res.savedSearch : res;
    mapLocalId(p, SAVED_SEARCH, entry.createdIds[0].id, s.savedSearchId);
    applyRemoteSavedSearches(p.apply, [s], { excludeSeq: entry.seq });
  },
});

export const updateSavedSearchSpec = defineSpec<'UpdateSavedSearch'>({
  operation: 'UpdateSavedSearch',
  targets: (req) => [{ resource: SAVED_SEARCH, recordId: req.savedSearch.savedSearchId, fields: fieldsOfMask(req.updateMask ?? []) }],
  // The platform's UpdateSavedSearch takes `name` and `properties` only (a `properties.<field>` path is Outpost's
  // extension): a property edit goes as `properties`, the whole current object, read from here when it is sent.
  encode(req) {
    const paths = req.updateMask ?? [];
    const sendsProperties = paths.some((x) => x === 'properties' || x.startsWith('properties.'));
    const savedSearch = compact({
      savedSearchId: req.savedSearch.savedSearchId,
      name: paths.includes('name') ? req.savedSearch.name : undefined,
    });
    return { savedSearch, updateMask: mask([...(paths.includes('name') ? ['name'] : []), ...(sendsProperties ? ['properties'] : [])]) };
  },
  transfer: {
    asyncWrite: false,
    stored: asValidated,
    async send(p, request, entry) {
      if (!String(request.updateMask).split(',').includes('properties')) return p.call('UpdateSavedSearch', request);
      const { savedSearchId } = request.savedSearch;
      const row = p.db.get<{ properties: string }>('SELECT properties FROM saved_searches WHERE id = ?', [savedSearchId]);
      // Gone here meanwhile (deleted; its delete follows in the outbox): the edit's own properties over the defaults.
      const current = row
        ? (JSON.parse(row.properties) as StoredProperties)
        : patchProperties(emptyProperties(), entry.request.savedSearch.properties ?? {}, propertyPathsOf(entry.request.updateMask ?? []));
      return p.call('UpdateSavedSearch', { ...request, savedSearch: { ...request.savedSearch, properties: propertiesToWire(current) } });
    },
  },
  applyResult(p, entry, res) {
    applyRemoteSavedSearches(p.apply, [res.savedSearch], { excludeSeq: entry.seq });
  },
  dropField(req, _id, field) {
    const left = fieldsOfMask(req.updateMask ?? []).filter((f) => f !== field);
    return left.length ? { ...req, updateMask: left } : null;
  },
  notFound: 'conflict',
});

export const deleteSavedSearchSpec = deleteById('DeleteSavedSearch', SAVED_SEARCH, 'savedSearchId');

// The batch is all-or-nothing: ids already gone remotely are left out and the rest sent again.
export const batchDeleteSavedSearchesSpec = idsBatch({
  operation: 'BatchDeleteSavedSearches',
  resource: SAVED_SEARCH,
  ids: 'savedSearchIds',
  field: '*delete',
  notFound: 'without',
  applyResult: () => {},
});

export const savedSearchSpecs: readonly OpSpec[] = [
  createSavedSearchSpec,
  updateSavedSearchSpec,
  deleteSavedSearchSpec,
  batchDeleteSavedSearchesSpec,
];
