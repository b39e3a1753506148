// ListAnnotationLogs: no order_by field exists (reference §4); logs are
// returned oldest first, the order of an activity history.
import type { ListSpec } from '../../filter/resource';

export const annotationLogListSpec: ListSpec = {
  resource: 'annotation logs',
  from: 'annotation_logs t',
  tieBreak: 't.pk',
  // Not reachable through the request (it has no order_by); used for the default order only.
  orderFields: { created_date: { sql: 't.created_date', type: 'number' } },
  defaultOrder: [{ field: 'created_date', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  filterFields: {},
};
