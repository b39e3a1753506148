// ListExternalSyncTokens (reference §1.6: created_date desc; order_by created_date; 50 / 1000).
import type { ListSpec } from '../../filter/resource';

export const externalSyncTokenListSpec: ListSpec = {
  resource: 'external_sync_tokens',
  from: 'external_sync_tokens t',
  tieBreak: 't.pk',
  orderFields: {
    created_date: { sql: 't.created_date', type: 'number' },
  },
  defaultOrder: [{ field: 'created_date', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // The reference documents no filterable fields for tokens.
  filterFields: {},
};
