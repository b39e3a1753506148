// ListRemoteFiles: order_by fields and default order (reference §1.6).
import type { ListSpec } from '../../filter/resource';

export const remoteFileListSpec: ListSpec = {
  resource: 'remote files',
  from: 'remote_files t',
  tieBreak: 't.pk',
  orderFields: {
    name: { sql: 't.file_name', type: 'text' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
  },
  defaultOrder: [{ field: 'created_date', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // Documented CEL filter fields (reference §10.2), wired by the filter engine later:
  // remote_file_id (t.id), entity_id, entity_type (enum EntityType), file_name, metadata (remote_file_metadata).
  filterFields: {},
};
