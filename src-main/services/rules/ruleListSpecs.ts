// ListRules and ListRuleVersions: order_by fields, default orders and page
// sizes (reference §1.6, §6).
import type { ListSpec } from '../../filter/resource';

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
  // Documented ListRules filter fields (reference §6), to be declared once the
  // CEL engine lands: rule_id, client_key, name, description, is_external,
  // asset_id (rule_asset_ids), tag_id (rule_tag_ids), created_date,
  // created_by_user_id, metadata (`metadata.<key>`, rule_metadata),
  // modified_date, modified_by_user_id, deleted_date, is_archived,
  // archived_date, is_live_evaluation_enabled; folder membership via `folders`
  // / `activeFolders` (no local folders: always empty).
  filterFields: {},
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
  // Documented ListRuleVersions filter fields (reference §6): rule_version_id
  // (t.id), user_notes (t.version_notes), change_message (t.change_message).
  filterFields: {},
};
