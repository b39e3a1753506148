// ListAnnotations: order_by fields and default order (reference §1.6), and the
// CEL-filterable fields (reference §3 "List filter fields").
import type { ListSpec } from '../../filter/resource';

export const annotationListSpec: ListSpec = {
  resource: 'annotations',
  from: 'annotations t',
  tieBreak: 't.pk',
  orderFields: {
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
    start_time: { sql: 't.start_time', type: 'number' },
    end_time: { sql: 't.end_time', type: 'number' },
    name: { sql: 't.name', type: 'text' },
    description: { sql: 't.description', type: 'text' },
  },
  defaultOrder: [{ field: 'created_date', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  filterFields: {},
};
