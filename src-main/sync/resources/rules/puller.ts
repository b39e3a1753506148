// Pulls rules (read-only offline: never edited locally through sync), per
// organization, incrementally on modified_date. ListRules gives the page; the
// full rules (conditions, actions, configuration) are then read with
// BatchGetRules, since a list may carry less than the whole rule. Stored with
// the remote's ids in the local rules tables (migration 0005), replacing the
// children; the current version is kept with the rule as its snapshot.
import { ActionKind, MAX_RULE_BATCH, type Rule } from '../../../../src-shared/api/rules';
import { replaceList, replaceMetadata } from '../../../db/childRows';
import type { Db } from '../../../db/database';
import { storedState } from '../../apply';
import { callWithRetry, perOrganization, timeOfField, type Puller } from '../../pull';
import { wireMicros } from '../../time';
import { ensureOrganization } from '../../identity';

const micros = (ts: string | null | undefined) => wireMicros(ts) ?? Date.now() * 1000;

/**
 * Everything upsertRule writes of one rule, without the pks of the children it re-inserts (a rewrite of the
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
    ['SELECT position, name, component, calculated_channel_version_id FROM rule_contextual_channels WHERE rule_pk = ? ORDER BY position', [pk]],
    ['SELECT key, type, string_value, number_value, boolean_value, position FROM rule_metadata WHERE rule_pk = ? ORDER BY position', [pk]],
    ['SELECT * FROM rule_versions WHERE rule_pk = ? ORDER BY pk', [pk]],
  ]);
}

function upsertRule(db: Db, r: Rule): void {
  ensureOrganization(db, r.organizationId);
  const clientKey = r.clientKey || null;
  if (clientKey) db.run('UPDATE rules SET client_key = NULL WHERE organization_id = ? AND client_key = ? AND id != ?', [r.organizationId, clientKey, r.ruleId]);
  db.run(
    `INSERT INTO rules(id, organization_id, client_key, name, description, asset_id, is_enabled, is_external, is_live_evaluation_enabled, current_version_id,
       created_date, modified_date, created_by_user_id, modified_by_user_id, deleted_date, archived_date)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET client_key = excluded.client_key, name = excluded.name, description = excluded.description, asset_id = excluded.asset_id,
       is_enabled = excluded.is_enabled, is_external = excluded.is_external, is_live_evaluation_enabled = excluded.is_live_evaluation_enabled,
       current_version_id = excluded.current_version_id, created_date = excluded.created_date, modified_date = excluded.modified_date,
       created_by_user_id = excluded.created_by_user_id, modified_by_user_id = excluded.modified_by_user_id, deleted_date = excluded.deleted_date,
       archived_date = excluded.archived_date`,
    [
      r.ruleId, r.organizationId, clientKey, r.name, r.description ?? '', r.assetId ?? '', r.isEnabled ? 1 : 0, r.isExternal ? 1 : 0,
      r.isLiveEvaluationEnabled === false ? 0 : 1, r.currentVersionId ?? r.ruleVersion?.ruleVersionId ?? '', micros(r.createdDate), micros(r.modifiedDate),
      r.createdByUserId, r.modifiedByUserId, wireMicros(r.deletedDate), wireMicros(r.archivedDate),
    ],
  );
  const pk = db.get<{ pk: number }>('SELECT pk FROM rules WHERE id = ?', [r.ruleId])!.pk;
  db.run('DELETE FROM rule_conditions WHERE rule_pk = ?', [pk]); // actions go with them (cascade)
  (r.conditions ?? []).forEach((c, i) => {
    const info = db.run(
      `INSERT INTO rule_conditions(id, rule_pk, position, version_id, expression, created_date, modified_date, created_by_user_id, modified_by_user_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [c.ruleConditionId, pk, i, c.ruleConditionVersionId ?? '', JSON.stringify(c.expression), micros(c.createdDate), micros(c.modifiedDate), c.createdByUserId, c.modifiedByUserId],
    );
    const conditionPk = Number(info.lastInsertRowid);
    (c.actions ?? []).forEach((a, j) =>
      db.run(
        `INSERT INTO rule_actions(id, condition_pk, rule_pk, position, action_type, configuration, version_id, created_date, modified_date, created_by_user_id, modified_by_user_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          a.ruleActionId, conditionPk, pk, j, ActionKind.numbers[a.actionType] ?? 0, JSON.stringify(a.configuration ?? {}), a.ruleActionVersionId ?? '',
          micros(a.createdDate), micros(a.modifiedDate), a.createdByUserId, a.modifiedByUserId,
        ],
      ),
    );
  });
  replaceList(db, 'rule_asset_ids', 'rule_pk', 'asset_id', pk, r.assetConfiguration?.assetIds ?? []);
  replaceList(db, 'rule_tag_ids', 'rule_pk', 'tag_id', pk, r.assetConfiguration?.tagIds ?? []);
  db.run('DELETE FROM rule_contextual_channels WHERE rule_pk = ?', [pk]);
  (r.contextualChannels?.channels ?? []).forEach((ch, i) =>
    db.run('INSERT INTO rule_contextual_channels(rule_pk, position, name, component, calculated_channel_version_id) VALUES (?, ?, ?, ?, ?)', [
      pk, i, ch.name ?? '', ch.component ?? '', ch.calculatedChannelVersionId ?? null,
    ]),
  );
  replaceMetadata(db, 'rule_metadata', 'rule_pk', pk, (r.metadata ?? []) as never);
  const v = r.ruleVersion;
  if (v?.ruleVersionId) {
    const version = Number(v.version) || 1;
    db.run('DELETE FROM rule_versions WHERE rule_pk = ? AND version = ? AND id != ?', [pk, version, v.ruleVersionId]);
    db.run(
      `INSERT INTO rule_versions(id, rule_pk, version, version_notes, change_message, created_date, created_by_user_id, snapshot) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET snapshot = excluded.snapshot`,
      [v.ruleVersionId, pk, version, v.versionNotes ?? '', v.generatedChangeMessage ?? '', micros(v.createdDate), v.createdByUserId, JSON.stringify(r)],
    );
  }
}

export const rulesPuller: Puller<Rule> = {
  resource: 'rules',
  operation: 'ListRules',
  listField: 'rules',
  mode: 'modified',
  orderable: true,
  timeOf: timeOfField('modifiedDate'),
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
      upsertRule(s.db, r);
      if (before === undefined || ruleState(s.db, r.ruleId) !== before) changed++;
    }
    return changed;
  },
};
