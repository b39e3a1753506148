// ListRules and ListRuleVersions: order_by fields, default orders and page
// sizes (reference §1.6, §6).
import type { ListSpec } from '../../filter/resource';
import { boolColumn, isArchivedFrom, metadataMap } from '../common/commonFilterFields';

export const ruleListSpec: ListSpec = {
  resource: 'rules',
  from: 'rules t',
  tieBreak: 't.pk',
  orderFields: {
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
  },
  defaultOrder: [{ field: 'created_date', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // ListRules filter fields (reference §6).
  filterFields: {
    rule_id: { kind: 'scalar', type: 'string', sql: 't.id' },
    // NULL (no client key) is '' on the wire, and so in filters.
    client_key: { kind: 'scalar', type: 'string', sql: "COALESCE(t.client_key, '')" },
    name: { kind: 'scalar', type: 'string', sql: 't.name' },
    description: { kind: 'scalar', type: 'string', sql: 't.description' },
    is_external: boolColumn('t.is_external'),
    // The assets of asset_configuration, plus the deprecated single asset_id when set.
    asset_id: {
      kind: 'relation',
      type: 'string',
      sources: [
        { rows: { from: 'rule_asset_ids {ra}', parentKey: 't.pk', childKey: '{ra}.rule_pk' }, value: '{ra}.asset_id' },
        { value: "NULLIF(t.asset_id, '')" },
      ],
    },
    tag_id: {
      kind: 'relation',
      type: 'string',
      sources: [{ rows: { from: 'rule_tag_ids {rt}', parentKey: 't.pk', childKey: '{rt}.rule_pk' }, value: '{rt}.tag_id' }],
    },
    created_date: { kind: 'scalar', type: 'timestamp', sql: 't.created_date' },
    created_by_user_id: { kind: 'scalar', type: 'string', sql: 't.created_by_user_id' },
    metadata: metadataMap('rule_metadata', 'rule_pk'),
    modified_date: { kind: 'scalar', type: 'timestamp', sql: 't.modified_date' },
    modified_by_user_id: { kind: 'scalar', type: 'string', sql: 't.modified_by_user_id' },
    // Delete and archive are one concept (the wire's deletedDate is the archive date).
    deleted_date: { kind: 'scalar', type: 'timestamp', sql: 't.archived_date', nullable: true },
    is_archived: isArchivedFrom('t.archived_date'),
    archived_date: { kind: 'scalar', type: 'timestamp', sql: 't.archived_date', nullable: true },
    is_live_evaluation_enabled: boolColumn('t.is_live_evaluation_enabled'),
    // Rule folders are not stored locally (Rule.folder_ids is always empty):
    // folder membership relations have no elements, so `folders == 'f'`
    // matches nothing and `!(folders == 'f')` every rule.
    folders: { kind: 'relation', type: 'string', sources: [] },
    activeFolders: { kind: 'relation', type: 'string', sources: [] },
  },
};

export const ruleVersionListSpec: ListSpec = {
  resource: 'rule versions',
  from: 'rule_versions t',
  tieBreak: 't.pk',
  // ListRuleVersionsRequest has no order_by; versions list newest first.
  orderFields: { version: { sql: 't.version', type: 'number' } },
  defaultOrder: [{ field: 'version', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // ListRuleVersions filter fields (reference §6); user_notes is the stored version_notes.
  filterFields: {
    rule_version_id: { kind: 'scalar', type: 'string', sql: 't.id' },
    user_notes: { kind: 'scalar', type: 'string', sql: 't.version_notes' },
    change_message: { kind: 'scalar', type: 'string', sql: 't.change_message' },
  },
};
