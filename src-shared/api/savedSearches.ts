// sift.saved_searches.v1 (reference §5): the SavedSearch resource and its 6 operations.
// Note the route segment uses an underscore: `/api/v1/saved_searches`.
//
// SavedSearchProperties carries two fields the reference lacks but the seed
// spec has: `template_items` (items of {id, name, kind}) and `report_type`
// (proto3 optional string).
import { z } from 'zod';
import { defineOperation } from './operation';
import { listRequest, organizationIdIn, EmptyOut } from './common';
import { boolIn, doubleIn, fieldMaskIn, message, outpostExtension, response, SEED_SPEC_FIELD, timestampIn, timestampOut } from './wire';

/** Longest name / free-text property we store (guards the database, not a platform limit). */
export const MAX_SAVED_SEARCH_TEXT = 10_000;
/** Most entries in one repeated property. */
export const MAX_SAVED_SEARCH_ITEMS = 10_000;

const text = z.string().max(MAX_SAVED_SEARCH_TEXT, `must be at most ${MAX_SAVED_SEARCH_TEXT} characters`);

export const SavedSearchFilterItemIn = message({
  id: z.string().min(1, 'must not be empty'),
  name: text,
});
export const SavedSearchFilterItemOut = response({ id: z.string(), name: z.string() });
export type SavedSearchFilterItem = z.infer<typeof SavedSearchFilterItemOut>;

/** A template item (the spec's `{id, name, kind}`): the kind is kept as given; unknown = ''. */
export const SavedSearchTemplateItemIn = message({
  id: z.string().min(1, 'must not be empty'),
  name: text,
  kind: text.optional(),
});
export const SavedSearchTemplateItemOut = response({ id: z.string(), name: z.string(), kind: z.string() });
export type SavedSearchTemplateItem = z.infer<typeof SavedSearchTemplateItemOut>;

/** A double on output: a JSON number, or "NaN" / "Infinity" / "-Infinity" (protobuf JSON). */
export const doubleOut = z.union([z.number(), z.enum(['NaN', 'Infinity', '-Infinity'])]);
export type DoubleOut = z.infer<typeof doubleOut>;

export const SavedSearchMetadataItemIn = message({
  key: z.string().min(1, 'must not be empty'),
  stringValue: z.string().optional(),
  numberValue: doubleIn.optional(),
  booleanValue: boolIn.optional(),
}).superRefine((v, ctx) => {
  const set = (['stringValue', 'numberValue', 'booleanValue'] as const).filter((k) => v[k] !== undefined);
  if (set.length > 1) ctx.addIssue({ code: 'custom', message: `only one of ${set.join(', ')} may be set (oneof value)` });
});
export type SavedSearchMetadataItemInput = z.output<typeof SavedSearchMetadataItemIn>;

/** oneof value: only the member that is set appears. */
export const SavedSearchMetadataItemOut = z.object({
  key: z.string(),
  stringValue: z.string().optional(),
  numberValue: doubleOut.optional(),
  booleanValue: z.boolean().optional(),
});
export type SavedSearchMetadataItem = z.infer<typeof SavedSearchMetadataItemOut>;

const items = <T extends z.ZodType>(item: T) => z.array(item).max(MAX_SAVED_SEARCH_ITEMS, `at most ${MAX_SAVED_SEARCH_ITEMS} items`);

/** The property fields, all optional: the shape shared by create (overview_mode enforced) and patch. */
const propertiesShape = {
  overviewMode: text.optional(),
  searchTerm: text.optional(),
  fromDateTime: timestampIn.optional(),
  toDateTime: timestampIn.optional(),
  assetItems: items(SavedSearchFilterItemIn).optional(),
  userItems: items(SavedSearchFilterItemIn).optional(),
  tagItems: items(SavedSearchFilterItemIn).optional(),
  annotationItems: items(SavedSearchFilterItemIn).optional(),
  runItems: items(SavedSearchFilterItemIn).optional(),
  reportTemplateItems: items(SavedSearchFilterItemIn).optional(),
  showAdvancedFilters: boolIn.optional(),
  includeArchived: boolIn.optional(),
  orderBy: text.optional(),
  metadataItems: items(SavedSearchMetadataItemIn).optional(),
  duration: text.optional(),
  templateItems: outpostExtension(items(SavedSearchTemplateItemIn).optional(), SEED_SPEC_FIELD),
  reportType: outpostExtension(text.optional(), SEED_SPEC_FIELD),
};

/** Properties in CreateSavedSearchRequest: overview_mode is required. */
export const SavedSearchPropertiesIn = message({ ...propertiesShape, overviewMode: text.min(1, 'must not be empty') });
/** Properties inside an UpdateSavedSearchRequest: only mask-named fields are read. */
export const SavedSearchPropertiesPatchIn = message(propertiesShape);
export type SavedSearchPropertiesInput = z.output<typeof SavedSearchPropertiesPatchIn>;

/** snake_case names of the SavedSearchProperties fields (update_mask sub-paths `properties.<name>`). */
export const SAVED_SEARCH_PROPERTY_PATHS = [
  'overview_mode',
  'search_term',
  'from_date_time',
  'to_date_time',
  'asset_items',
  'user_items',
  'tag_items',
  'annotation_items',
  'run_items',
  'report_template_items',
  'show_advanced_filters',
  'include_archived',
  'order_by',
  'metadata_items',
  'duration',
  'template_items',
  'report_type',
] as const;

export const SavedSearchPropertiesOut = response({
  overviewMode: z.string(),
  searchTerm: z.string().optional(),
  fromDateTime: timestampOut.optional(),
  toDateTime: timestampOut.optional(),
  assetItems: z.array(SavedSearchFilterItemOut),
  userItems: z.array(SavedSearchFilterItemOut),
  tagItems: z.array(SavedSearchFilterItemOut),
  annotationItems: z.array(SavedSearchFilterItemOut),
  runItems: z.array(SavedSearchFilterItemOut),
  reportTemplateItems: z.array(SavedSearchFilterItemOut),
  showAdvancedFilters: z.boolean().optional(),
  includeArchived: z.boolean().optional(),
  orderBy: z.string().optional(),
  metadataItems: z.array(SavedSearchMetadataItemOut),
  duration: z.string().optional(),
  templateItems: outpostExtension(z.array(SavedSearchTemplateItemOut), SEED_SPEC_FIELD),
  reportType: outpostExtension(z.string().optional(), SEED_SPEC_FIELD),
});
export type SavedSearchProperties = z.infer<typeof SavedSearchPropertiesOut>;

export const SavedSearchOut = response({
  savedSearchId: z.string(),
  organizationId: z.string(),
  name: z.string(),
  properties: SavedSearchPropertiesOut,
  createdByUserId: z.string(),
  modifiedByUserId: z.string(),
  createdDate: timestampOut,
  modifiedDate: timestampOut,
});
export type SavedSearch = z.infer<typeof SavedSearchOut>;

const savedSearchBody = { savedSearch: SavedSearchOut };
const idPath = { savedSearchId: z.string().min(1, 'is required') };

export const CreateSavedSearchRequest = message({
  name: text.min(1, 'must not be empty'),
  properties: SavedSearchPropertiesIn,
  organizationId: organizationIdIn,
});
export type CreateSavedSearchInput = z.output<typeof CreateSavedSearchRequest>;

/** The saved search inside an UpdateSavedSearchRequest: only mask-named fields are read. */
export const SavedSearchPatchIn = message({
  savedSearchId: z.string().min(1, 'is required'),
  name: text.optional(),
  properties: SavedSearchPropertiesPatchIn.optional(),
});
export type SavedSearchPatch = z.output<typeof SavedSearchPatchIn>;

export const savedSearchOperations = {
  GetSavedSearch: defineOperation({
    name: 'GetSavedSearch',
    method: 'GET',
    path: '/api/v1/saved_searches/{saved_search_id}',
    input: 'path',
    tag: 'SavedSearches',
    summary: 'Get a saved search',
    request: message(idPath),
    response: response(savedSearchBody),
  }),
  CreateSavedSearch: defineOperation({
    name: 'CreateSavedSearch',
    method: 'POST',
    path: '/api/v1/saved_searches',
    input: 'body',
    tag: 'SavedSearches',
    summary: 'Create a saved search',
    request: CreateSavedSearchRequest,
    response: response(savedSearchBody),
  }),
  ListSavedSearches: defineOperation({
    name: 'ListSavedSearches',
    method: 'GET',
    path: '/api/v1/saved_searches',
    input: 'query',
    tag: 'SavedSearches',
    summary: 'List saved searches (default order created_date ascending, keyset paging)',
    request: listRequest({ organizationId: organizationIdIn }),
    response: response({ savedSearches: z.array(SavedSearchOut), nextPageToken: z.string() }),
  }),
  UpdateSavedSearch: defineOperation({
    name: 'UpdateSavedSearch',
    method: 'PATCH',
    path: '/api/v1/saved_searches',
    input: 'body',
    tag: 'SavedSearches',
    summary: 'Update the name and/or properties (or single properties) of a saved search named by update_mask',
    // update_mask is required; the service checks it so a missing and an empty mask read the same.
    request: message({ savedSearch: SavedSearchPatchIn, updateMask: fieldMaskIn.optional() }),
    response: response(savedSearchBody),
  }),
  DeleteSavedSearch: defineOperation({
    name: 'DeleteSavedSearch',
    method: 'DELETE',
    path: '/api/v1/saved_searches/{saved_search_id}',
    input: 'path',
    tag: 'SavedSearches',
    summary: 'Delete a saved search (permanently)',
    request: message(idPath),
    response: EmptyOut,
  }),
  BatchDeleteSavedSearches: defineOperation({
    name: 'BatchDeleteSavedSearches',
    method: 'POST',
    path: '/api/v1/saved_searches:batchDelete',
    input: 'body',
    tag: 'SavedSearches',
    summary: 'Delete up to 1000 saved searches atomically',
    request: message({ savedSearchIds: z.array(z.string()).max(1000, 'at most 1000 ids per batch') }),
    response: EmptyOut,
  }),
} as const;
