// Stored rule rows -> wire Rules (batch-loading conditions, actions and the
// other child tables for a whole page at once).
import {
  ActionKind,
  type ActionKindName,
  type ChannelReference,
  type Rule,
  type RuleAction,
  type RuleActionConfiguration,
  type RuleCondition,
  type RuleConditionExpression,
  type RuleVersion,
} from '../../../src-shared/api/rules';
import { formatOptionalTimestamp, formatTimestamp } from '../../../src-shared/api/time';
import { loadByPks, loadLists, loadMetadata } from '../../db/childRows';
import type { Db } from '../../db/database';

export interface RuleRow {
  pk: number;
  id: string;
  organization_id: string;
  client_key: string | null;
  name: string;
  description: string;
  asset_id: string;
  is_enabled: number;
  is_external: number;
  is_live_evaluation_enabled: number;
  current_version_id: string;
  created_date: number;
  modified_date: number;
  created_by_user_id: string;
  modified_by_user_id: string;
  deleted_date: number | null;
  archived_date: number | null;
}

export interface ConditionRow {
  pk: number;
  id: string;
  rule_pk: number;
  position: number;
  version_id: string;
  expression: string;
  created_date: number;
  modified_date: number;
  created_by_user_id: string;
  modified_by_user_id: string;
}

export interface ActionRow {
  pk: number;
  id: string;
  condition_pk: number;
  rule_pk: number;
  position: number;
  action_type: number;
  configuration: string;
  version_id: string;
  created_date: number;
  modified_date: number;
  created_by_user_id: string;
  modified_by_user_id: string;
}

export interface VersionRow {
  pk: number;
  id: string;
  rule_pk: number;
  version: number;
  version_notes: string;
  change_message: string;
  created_date: number;
  created_by_user_id: string;
  snapshot: string;
}

const PKS = '(SELECT value FROM json_each(?))';
const actionKindByNumber = new Map<number, ActionKindName>(ActionKind.names.map((n) => [ActionKind.numbers[n], n]));
export const actionKindName = (n: number): ActionKindName => actionKindByNumber.get(n) ?? 'ACTION_KIND_UNSPECIFIED';

function groupBy<T, K>(rows: readonly T[], key: (r: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    let list = out.get(key(r));
    if (!list) out.set(key(r), (list = []));
    list.push(r);
  }
  return out;
}

export function actionToWire(a: ActionRow, conditionId: string): RuleAction {
  return {
    ruleActionId: a.id,
    ruleConditionId: conditionId,
    actionType: actionKindName(a.action_type),
    configuration: JSON.parse(a.configuration) as RuleActionConfiguration,
    createdDate: formatTimestamp(a.created_date),
    modifiedDate: formatTimestamp(a.modified_date),
    createdByUserId: a.created_by_user_id,
    modifiedByUserId: a.modified_by_user_id,
    ruleActionVersionId: a.version_id,
  };
}

/**
 * A RuleVersion as seen now. Versions are archived together with their rule
 * (archive is rule state, not part of the versioned definition).
 */
export function versionToWire(v: VersionRow, ruleId: string, archivedDate: number | null): RuleVersion {
  return {
    ruleId,
    ruleVersionId: v.id,
    version: String(v.version),
    createdDate: formatTimestamp(v.created_date),
    createdByUserId: v.created_by_user_id,
    versionNotes: v.version_notes,
    generatedChangeMessage: v.change_message,
    // Delete and archive are one concept on the platform: the delete date is the archive date.
    deletedDate: formatOptionalTimestamp(archivedDate),
    archivedDate: formatOptionalTimestamp(archivedDate),
    isArchived: archivedDate !== null,
  };
}

function loadContextualChannels(db: Db, pks: readonly number[]): Map<number, ChannelReference[]> {
  const rows = db.all<{ rule_pk: number; name: string; component: string; calculated_channel_version_id: string | null }>(
    `SELECT rule_pk, name, component, calculated_channel_version_id FROM rule_contextual_channels WHERE rule_pk IN ${PKS} ORDER BY rule_pk, position`,
    [JSON.stringify(pks)],
  );
  const out = new Map<number, ChannelReference[]>();
  for (const [pk, list] of groupBy(rows, (r) => r.rule_pk)) {
    out.set(
      pk,
      list.map((r) => {
        const ref: ChannelReference = { name: r.name, component: r.component };
        if (r.calculated_channel_version_id !== null) ref.calculatedChannelVersionId = r.calculated_channel_version_id;
        return ref;
      }),
    );
  }
  return out;
}

export function toWire(db: Db, rows: readonly RuleRow[]): Rule[] {
  const pks = rows.map((r) => r.pk);
  const json = JSON.stringify(pks);
  const conditions = groupBy(
    db.all<ConditionRow>(`SELECT * FROM rule_conditions WHERE rule_pk IN ${PKS} ORDER BY rule_pk, position`, [json]),
    (c) => c.rule_pk,
  );
  const actions = groupBy(
    db.all<ActionRow>(`SELECT * FROM rule_actions WHERE rule_pk IN ${PKS} ORDER BY rule_pk, condition_pk, position`, [json]),
    (a) => a.condition_pk,
  );
  const versionIds = rows.map((r) => r.current_version_id);
  const versions = new Map(
    db.all<VersionRow>(`SELECT * FROM rule_versions WHERE id IN ${PKS}`, [JSON.stringify(versionIds)]).map((v) => [v.id, v]),
  );
  const assetIds = loadLists(db, 'rule_asset_ids', 'rule_pk', 'asset_id', pks);
  const tagIds = loadLists(db, 'rule_tag_ids', 'rule_pk', 'tag_id', pks);
  const channels = loadContextualChannels(db, pks);
  const metadata = loadMetadata(db, 'rule_metadata', 'rule_pk', pks);
  return rows.map((r): Rule => {
    const conds = (conditions.get(r.pk) ?? []).map((c): RuleCondition => ({
      ruleConditionId: c.id,
      ruleId: r.id,
      expression: JSON.parse(c.expression) as RuleConditionExpression,
      createdDate: formatTimestamp(c.created_date),
      modifiedDate: formatTimestamp(c.modified_date),
      createdByUserId: c.created_by_user_id,
      modifiedByUserId: c.modified_by_user_id,
      actions: (actions.get(c.pk) ?? []).map((a) => actionToWire(a, c.id)),
      ruleConditionVersionId: c.version_id,
    }));
    const version = versions.get(r.current_version_id);
    return {
      ruleId: r.id,
      assetId: r.asset_id,
      name: r.name,
      description: r.description,
      isEnabled: r.is_enabled === 1,
      createdDate: formatTimestamp(r.created_date),
      modifiedDate: formatTimestamp(r.modified_date),
      createdByUserId: r.created_by_user_id,
      modifiedByUserId: r.modified_by_user_id,
      organizationId: r.organization_id,
      conditions: conds,
      ruleVersion: version
        ? versionToWire(version, r.id, r.archived_date)
        : {
            ruleId: r.id,
            ruleVersionId: '',
            version: '',
            createdDate: formatTimestamp(r.created_date),
            createdByUserId: r.created_by_user_id,
            versionNotes: '',
            generatedChangeMessage: '',
            deletedDate: formatOptionalTimestamp(r.archived_date),
            archivedDate: formatOptionalTimestamp(r.archived_date),
            isArchived: r.archived_date !== null,
          },
      clientKey: r.client_key ?? '',
      assetConfiguration: { assetIds: assetIds.get(r.pk) ?? [], tagIds: tagIds.get(r.pk) ?? [] },
      contextualChannels: { channels: channels.get(r.pk) ?? [] },
      deletedDate: formatOptionalTimestamp(r.archived_date),
      isExternal: r.is_external === 1,
      metadata: metadata.get(r.pk) ?? [],
      archivedDate: formatOptionalTimestamp(r.archived_date),
      isArchived: r.archived_date !== null,
      isLiveEvaluationEnabled: r.is_live_evaluation_enabled === 1,
      currentVersionId: r.current_version_id,
      // Rule folders are not stored locally.
      folderIds: [],
    };
  });
}

export function loadRules(db: Db, pks: readonly number[]): Rule[] {
  return toWire(db, loadByPks<RuleRow>(db, 'rules', pks));
}

export function loadConditions(db: Db, rulePk: number): { conditions: ConditionRow[]; actions: Map<number, ActionRow[]> } {
  const conditions = db.all<ConditionRow>('SELECT * FROM rule_conditions WHERE rule_pk = ? ORDER BY position', [rulePk]);
  const actions = groupBy(
    db.all<ActionRow>('SELECT * FROM rule_actions WHERE rule_pk = ? ORDER BY condition_pk, position', [rulePk]),
    (a) => a.condition_pk,
  );
  return { conditions, actions };
}
