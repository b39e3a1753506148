// Saved searches as a replicated resource (see NOTES.md here).
import { snakeToCamel } from '../../../../src-shared/api/wire';
import type { RecordKind, ReplicatedResource, UndoWrite } from '../../resource';
import { replaceIdInSavedSearches, savedSearchRows } from '../../../services/savedSearches/savedSearchStore';
import { ANNOTATION } from '../annotations/apply';
import { snapshotOf } from '../../recordShape';
import { SAVED_SEARCH, SAVED_SEARCH_SHAPE } from './apply';
import { savedSearchesPuller } from './puller';
import { savedSearchSpecs } from './specs';
import { preLinkSavedSearches } from './preLink';

/** The losing value of the name or of one property, written again through UpdateSavedSearch. */
function undo(savedSearchId: string, field: string, value: unknown): UndoWrite | undefined {
  if (field === 'name')
    return { operation: 'UpdateSavedSearch', request: { savedSearch: { savedSearchId, name: value }, updateMask: 'name' } };
  const property = /^properties\.([a-z_]+)$/.exec(field)?.[1];
  if (!property) return undefined;
  return {
    operation: 'UpdateSavedSearch',
    request: { savedSearch: { savedSearchId, properties: value === null ? {} : { [snakeToCamel(property)]: value } }, updateMask: field },
  };
}

const savedSearch: RecordKind = {
  resource: SAVED_SEARCH,
  rows: savedSearchRows,
  merge: { snapshot: snapshotOf(SAVED_SEARCH_SHAPE), undo },
  references: [{ to: ANNOTATION, column: 'saved_searches.properties', rewrite: replaceIdInSavedSearches }],
};

export const savedSearches: ReplicatedResource = {
  name: 'saved_searches',
  records: [savedSearch],
  specs: savedSearchSpecs,
  pullers: [savedSearchesPuller],
  preLink: [preLinkSavedSearches],
};
