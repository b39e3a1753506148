// SavedSearchService operations -> savedSearchesService.
import type { savedSearchOperations } from '../../../src-shared/api/savedSearches';
import type { HandlerMap } from '../common/handler';
import { createSavedSearch, deleteSavedSearches, getSavedSearch, listSavedSearches, updateSavedSearch } from './savedSearchesService';

export const savedSearchHandlers: HandlerMap<typeof savedSearchOperations> = {
  GetSavedSearch: (ctx, req) => getSavedSearch(ctx, req.savedSearchId),
  CreateSavedSearch: (ctx, req) => createSavedSearch(ctx, req),
  ListSavedSearches: (ctx, req) => listSavedSearches(ctx, req),
  UpdateSavedSearch: (ctx, req) => updateSavedSearch(ctx, req.savedSearch, req.updateMask),
  DeleteSavedSearch: (ctx, req) => (deleteSavedSearches(ctx, [req.savedSearchId], 'saved_search_id'), {}),
  BatchDeleteSavedSearches: (ctx, req) => (deleteSavedSearches(ctx, req.savedSearchIds), {}),
};
