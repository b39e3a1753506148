// Pulls saved searches: few per organization, and deleted for good upstream,
// so each sync reads them all and removes local ones the remote no longer has.
import type { SavedSearch } from '../../../../src-shared/api/savedSearches';
import { changedBy } from '../../apply';
import { perOrganization, type Puller } from '../../pull';
import { savedSearchRows } from '../../../services/savedSearches/savedSearchStore';
import { removeUnlisted } from '../../deletions';
import { applyRemoteSavedSearches, SAVED_SEARCH } from './apply';

export const savedSearchesPuller: Puller<SavedSearch> = {
  resource: 'saved_searches',
  collisions: { table: 'saved_searches', kind: SAVED_SEARCH },
  readAgain: { whileEditsOf: SAVED_SEARCH },
  operation: 'ListSavedSearches',
  listField: 'savedSearches',
  listing: {
    by: 'whole',
    settle(s, variant, seen) {
      const org = (variant.organizationId as string | undefined) ?? s.identity.organizations[0]?.id;
      if (org) removeUnlisted(s.db, SAVED_SEARCH, savedSearchRows, [org], seen);
    },
  },
  idOf: (x) => x.savedSearchId,
  variants: perOrganization,
  /** Counts saved searches inserted or changed here (the full read of every run finds the others unchanged). */
  apply(s, items) {
    return changedBy(s.applier.stats, () => applyRemoteSavedSearches(s.applier, items));
  },
};
