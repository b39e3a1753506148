// Pulls rules (read-only offline: never edited locally through sync), per
// organization, incrementally on modified_date. ListRules gives the page; the
// full rules (conditions, actions, configuration) are then read with
// BatchGetRules, since a list may carry less than the whole rule. Stored with
// the remote's ids in the local rules tables (migration 0005), replacing the
// children; the current version is kept with the rule as its snapshot.
import { ActionKind, MAX_RULE_BATCH, type Rule } from '../../../../src-shared/api/rules';
import {
  deleteRuleConditions,
  insertRuleAction,
  insertRuleCondition,
  releaseClientKey,
  replaceRuleAssetConfiguration,
  replaceRuleContextualChannels,
  replaceRuleMetadata,
  upsertRule,
  upsertRuleVersion,
} from '../../../services/rules/ruleStore';
import type { Db } from '../../../db/database';
import { storedState } from '../../apply';
import { callWithRetry, perOrganization, type Puller } from '../../pull';
import { wireMicros } from '../../time';
import { ensureOrganization } from '../../identity';

const micros = (ts: string | null | undefined) => wireMicros(ts) ?? Date.now() * 1000;

/**
 * Everything upsertRemoteRule writes of one rule, without the pks of the children it re-inserts (a rewrite of the
 * same rule gives the same picture). Undefined when the rule is not here.
 */
function ruleState(db: Db, id: string): string | undefined {
  const pk = db.get<{ pk: number }>('SELECT pk FROM rules WHERE id = ?', [id])?.pk;
  if (pk === undefined) return undefined;
  return storedState(db, [
    ['SELECT * FROM rules WHERE pk = ?', [pk]],
    [
      `SELECT id, position, version_id, expression, created_date, modified_date, created_by_user_id, modified_by_user_id
       FROM rule_conditions WHERE rule_pk = ? ORDER BY position, id`,
      [pk],
    ],
    [
      `SELECT a.id, c.id AS condition_id, a.position, a.action_type, a.configuration, a.version_id, a.created_date, a.modified_date,
         a.created_by_user_id, a.modified_by_user_id
       FROM rule_actions a JOIN rule_conditions c ON c.pk = a.condition_pk WHERE a.rule_pk = ? ORDER BY c.position, c.id, a.position, a.id`,
      [pk],
    ],
    ['SELECT asset_id, position FROM rule_asset_ids WHERE rule_pk = ? ORDER BY position', [pk]],
    ['SELECT tag_id, position FROM rule_tag_ids WHERE rule_pk = ? ORDER BY position', [pk]],
    [
      'SELECT position, name, component, calculated_channel_version_id FROM rule_contextual_channels WHERE rule_pk = ? ORDER BY position',
      [pk],
    ],
    ['SELECT key, type, string_value, number_value, boolean_value, position FROM rule_metadata WHERE rule_pk = ? ORDER BY position', [pk]],
    ['SELECT * FROM rule_versions WHERE rule_pk = ? ORDER BY pk', [pk]],
  ]);
}

function upsertRemoteRule(db: Db, r: Rule): void {
  ensureOrganization(db, r.organizationId);
  const clientKey = r.clientKey || null;
  if (clientKey) releaseClientKey(db, r.organizationId, clientKey, r.ruleId);
  const pk = upsertRule(db, {
    id: r.ruleId,
    organization_id: r.organizationId,
    client_key: clientKey,
    name: r.name,
    description: r.description ?? '',
    asset_id: r.assetId ?? '',
    is_enabled: r.isEnabled ? 1 : 0,
    is_external: r.isExternal ? 1 : 0,
    is_live_evaluation_enabled: r.isLiveEvaluationEnabled === false ? 0 : 1,
    current_version_id: r.currentVersionId ?? r.ruleVersion?.ruleVersionId ?? '',
    created_date: micros(r.createdDate),
    modified_date: micros(r.modifiedDate),
    created_by_user_id: r.createdByUserId,
    modified_by_user_id: r.modifiedByUserId,
    deleted_date: wireMicros(r.deletedDate),
    archived_date: wireMicros(r.archivedDate),
  });
  deleteRuleConditions(db, pk);
  (r.conditions ?? []).forEach((c, i) => {
    const conditionPk = insertRuleCondition(db, {
      id: c.ruleConditionId,
      rule_pk: pk,
      position: i,
      version_id: c.ruleConditionVersionId ?? '',
      expression: JSON.stringify(c.expression),
      created_date: micros(c.createdDate),
      modified_date: micros(c.modifiedDate),
      created_by_user_id: c.createdByUserId,
      modified_by_user_id: c.modifiedByUserId,
    });
    (c.actions ?? []).forEach((a, j) =>
      insertRuleAction(db, {
        id: a.ruleActionId,
        condition_pk: conditionPk,
        rule_pk: pk,
        position: j,
        action_type: ActionKind.numbers[a.actionType] ?? 0,
        configuration: JSON.stringify(a.configuration ?? {}),
        version_id: a.ruleActionVersionId ?? '',
        created_date: micros(a.createdDate),
        modified_date: micros(a.modifiedDate),
        created_by_user_id: a.createdByUserId,
        modified_by_user_id: a.modifiedByUserId,
      }),
    );
  });
  replaceRuleAssetConfiguration(db, pk, r.assetConfiguration?.assetIds ?? [], r.assetConfiguration?.tagIds ?? []);
  replaceRuleContextualChannels(
    db,
    pk,
    (r.contextualChannels?.channels ?? []).map((ch) => ({
      name: ch.name ?? '',
      component: ch.component ?? '',
      calculatedChannelVersionId: ch.calculatedChannelVersionId ?? null,
    })),
  );
  replaceRuleMetadata(db, pk, (r.metadata ?? []) as never);
  const v = r.ruleVersion;
  if (v?.ruleVersionId) {
    upsertRuleVersion(db, {
      id: v.ruleVersionId,
      rule_pk: pk,
      version: Number(v.version) || 1,
      version_notes: v.versionNotes ?? '',
      change_message: v.generatedChangeMessage ?? '',
      created_date: micros(v.createdDate),
      created_by_user_id: v.createdByUserId,
      snapshot: JSON.stringify(r),
    });
  }
}

export const rulesPuller: Puller<Rule> = {
  resource: 'rules',
  collisions: { table: 'rules', kind: 'rule' },
  readAgain: 'never',
  operation: 'ListRules',
  listField: 'rules',
  listing: { by: 'modified_date', orderable: true },
  idOf: (r) => r.ruleId,
  variants: perOrganization,
  /** Replaces each listed rule by the full rule (in place: apply gets the same page). */
  async prepare(s, items) {
    const full = new Map<string, Rule>();
    for (let i = 0; i < items.length; i += MAX_RULE_BATCH) {
      const res = await callWithRetry(s, 'BatchGetRules', { ruleIds: items.slice(i, i + MAX_RULE_BATCH).map((r) => r.ruleId) });
      for (const r of (res.rules ?? []) as Rule[]) full.set(r.ruleId, r);
    }
    items.forEach((r, i) => (items[i] = full.get(r.ruleId) ?? r));
  },
  /** Counts rules inserted or changed here (an unchanged re-read in the overlap window counts 0). */
  apply(s, items) {
    let changed = 0;
    for (const r of items) {
      const before = ruleState(s.db, r.ruleId);
      upsertRemoteRule(s.db, r);
      if (before === undefined || ruleState(s.db, r.ruleId) !== before) changed++;
    }
    return changed;
  },
};
