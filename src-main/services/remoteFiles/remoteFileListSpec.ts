// ListRemoteFiles: order_by fields and default order (reference §1.6).
import { EntityType } from '../../../src-shared/api/remoteFiles';
import type { ListSpec } from '../../filter/resource';
import { metadataMap } from '../common/commonFilterFields';

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
  // CEL filter fields (reference §10.2). `metadata` is the metadata_values
  // list (the RemoteFile oneof named `metadata` is the media info).
  filterFields: {
    remote_file_id: { kind: 'scalar', type: 'string', sql: 't.id' },
    entity_id: { kind: 'scalar', type: 'string', sql: 't.entity_id' },
    entity_type: { kind: 'enum', sql: 't.entity_type', values: EntityType.numbers },
    file_name: { kind: 'scalar', type: 'string', sql: 't.file_name' },
    metadata: metadataMap('remote_file_metadata', 'remote_file_pk'),
  },
};
