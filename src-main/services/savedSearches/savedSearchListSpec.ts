// ListSavedSearches: order_by fields and default order (reference §1.6: created_date
// ascending, name / created_date / modified_date, 50 / 1000).
import type { ListSpec } from '../../filter/resource';

export const savedSearchListSpec: ListSpec = {
  resource: 'saved_searches',
  from: 'saved_searches t',
  tieBreak: 't.pk',
  orderFields: {
    name: { sql: 't.name', type: 'text' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
  },
  defaultOrder: [{ field: 'created_date', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // CEL filter fields (reference §5). The properties are one JSON document
  // (migration 0003); overviewMode is always stored ('' when unset), the
  // COALESCE only guards rows written before that rule.
  filterFields: {
    saved_search_id: { kind: 'scalar', type: 'string', sql: 't.id' },
    name: { kind: 'scalar', type: 'string', sql: 't.name' },
    overview_mode: { kind: 'scalar', type: 'string', sql: "COALESCE(json_extract(t.properties, '$.overviewMode'), '')" },
  },
};
