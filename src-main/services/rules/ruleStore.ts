// The rule tables' rows — rules, their conditions, actions, versions,
// contextual channels, asset and tag lists and metadata — are written here and
// nowhere else: by the API's services (ruleWrites.ts: CreateRule, UpdateRule,
// archive) and by sync (the rules pulled from the remote, stored whole). Values
// are as stored (epoch micros, enum numbers, JSON text); reading them back as
// the API's Rule is ruleRows.ts.
import type { MetadataValueInput } from '../../../src-shared/api/metadata';
import { replaceList, replaceMetadata } from '../../db/childRows';
import type { Db, SqlValue } from '../../db/database';

type Row<K extends string> = Readonly<Record<K, SqlValue>>;

const RULE_COLUMNS = [
  'id',
  'organization_id',
  'client_key',
  'name',
  'description',
  'asset_id',
  'is_enabled',
  'is_external',
  'is_live_evaluation_enabled',
  'current_version_id',
  'created_date',
  'modified_date',
  'created_by_user_id',
  'modified_by_user_id',
  'deleted_date',
  'archived_date',
] as const;
export type RuleRowValues = Row<(typeof RULE_COLUMNS)[number]>;
type RuleColumn = Exclude<(typeof RULE_COLUMNS)[number], 'id' | 'organization_id'>;

const CONDITION_COLUMNS = [
  'id',
  'rule_pk',
  'position',
  'version_id',
  'expression',
  'created_date',
  'modified_date',
  'created_by_user_id',
  'modified_by_user_id',
] as const;
export type RuleConditionRowValues = Row<(typeof CONDITION_COLUMNS)[number]>;

const ACTION_COLUMNS = [
  'id',
  'condition_pk',
  'rule_pk',
  'position',
  'action_type',
  'configuration',
  'version_id',
  'created_date',
  'modified_date',
  'created_by_user_id',
  'modified_by_user_id',
] as const;
export type RuleActionRowValues = Row<(typeof ACTION_COLUMNS)[number]>;

const VERSION_COLUMNS = [
  'id',
  'rule_pk',
  'version',
  'version_notes',
  'change_message',
  'created_date',
  'created_by_user_id',
  'snapshot',
] as const;
export type RuleVersionRowValues = Row<(typeof VERSION_COLUMNS)[number]>;

export interface RuleContextualChannelRow {
  readonly name: string;
  readonly component: string;
  readonly calculatedChannelVersionId: string | null;
}

const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table}(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
const setSql = (table: string, columns: readonly string[]) =>
  `UPDATE ${table} SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE pk = ?`;

function setColumns(db: Db, table: string, pk: number, values: Readonly<Record<string, SqlValue | undefined>>): void {
  const columns = Object.keys(values).filter((c) => values[c] !== undefined);
  if (columns.length) db.run(setSql(table, columns), [...columns.map((c) => values[c] as SqlValue), pk]);
}

// ---- rules --------------------------------------------------------------------

/** Inserts a new rule; returns its pk. */
export function insertRule(db: Db, row: RuleRowValues): number {
  return Number(
    db.run(
      insertSql('rules', RULE_COLUMNS),
      RULE_COLUMNS.map((c) => row[c]),
    ).lastInsertRowid,
  );
}

/** Inserts the rule, or replaces every column of the one with its id (a remote version); returns its pk. */
export function upsertRule(db: Db, row: RuleRowValues): number {
  const updates = RULE_COLUMNS.filter((c) => c !== 'id' && c !== 'organization_id').map((c) => `${c} = excluded.${c}`);
  db.run(
    `${insertSql('rules', RULE_COLUMNS)} ON CONFLICT(id) DO UPDATE SET ${updates.join(', ')}`,
    RULE_COLUMNS.map((c) => row[c]),
  );
  return db.get<{ pk: number }>('SELECT pk FROM rules WHERE id = ?', [row.id])!.pk;
}

export function setRuleColumns(db: Db, pk: number, values: Partial<Row<RuleColumn>>): void {
  setColumns(db, 'rules', pk, values);
}

/** A client key names one rule of an organization: the remote gave it to `keepId`, so no other rule here keeps it. */
export function releaseClientKey(db: Db, organizationId: string, clientKey: string, keepId: string): void {
  db.run('UPDATE rules SET client_key = NULL WHERE organization_id = ? AND client_key = ? AND id != ?', [
    organizationId,
    clientKey,
    keepId,
  ]);
}

// ---- conditions and actions ------------------------------------------------------

/** Inserts a condition; returns its pk. */
export function insertRuleCondition(db: Db, row: RuleConditionRowValues): number {
  return Number(
    db.run(
      insertSql('rule_conditions', CONDITION_COLUMNS),
      CONDITION_COLUMNS.map((c) => row[c]),
    ).lastInsertRowid,
  );
}

export function setRuleConditionColumns(
  db: Db,
  pk: number,
  values: Partial<Row<'position' | 'expression' | 'version_id' | 'modified_date' | 'modified_by_user_id'>>,
): void {
  setColumns(db, 'rule_conditions', pk, values);
}

/** Deletes one condition (its actions cascade). */
export function deleteRuleCondition(db: Db, pk: number): void {
  db.run('DELETE FROM rule_conditions WHERE pk = ?', [pk]);
}

/** Deletes every condition of a rule (their actions cascade). */
export function deleteRuleConditions(db: Db, rulePk: number): void {
  db.run('DELETE FROM rule_conditions WHERE rule_pk = ?', [rulePk]);
}

export function insertRuleAction(db: Db, row: RuleActionRowValues): void {
  db.run(
    insertSql('rule_actions', ACTION_COLUMNS),
    ACTION_COLUMNS.map((c) => row[c]),
  );
}

export function setRuleActionColumns(
  db: Db,
  pk: number,
  values: Partial<Row<'position' | 'action_type' | 'configuration' | 'version_id' | 'modified_date' | 'modified_by_user_id'>>,
): void {
  setColumns(db, 'rule_actions', pk, values);
}

export function deleteRuleAction(db: Db, pk: number): void {
  db.run('DELETE FROM rule_actions WHERE pk = ?', [pk]);
}

// ---- the rule's lists ----------------------------------------------------------------

export function replaceRuleAssetConfiguration(db: Db, rulePk: number, assetIds: readonly string[], tagIds: readonly string[]): void {
  replaceList(db, 'rule_asset_ids', 'rule_pk', 'asset_id', rulePk, assetIds);
  replaceList(db, 'rule_tag_ids', 'rule_pk', 'tag_id', rulePk, tagIds);
}

export function replaceRuleContextualChannels(db: Db, rulePk: number, channels: readonly RuleContextualChannelRow[]): void {
  db.run('DELETE FROM rule_contextual_channels WHERE rule_pk = ?', [rulePk]);
  channels.forEach((c, i) =>
    db.run(
      'INSERT INTO rule_contextual_channels(rule_pk, position, name, component, calculated_channel_version_id) VALUES (?, ?, ?, ?, ?)',
      [rulePk, i, c.name, c.component, c.calculatedChannelVersionId],
    ),
  );
}

/** Duplicate keys are refused, naming `field`. */
export function replaceRuleMetadata(db: Db, rulePk: number, metadata: readonly MetadataValueInput[], field = 'metadata'): void {
  replaceMetadata(db, 'rule_metadata', 'rule_pk', rulePk, metadata, field);
}

// ---- versions ------------------------------------------------------------------------

export function insertRuleVersion(db: Db, row: RuleVersionRowValues): void {
  db.run(
    insertSql('rule_versions', VERSION_COLUMNS),
    VERSION_COLUMNS.map((c) => row[c]),
  );
}

/** A remote version: inserted, or its snapshot refreshed; another version of the same number here gives way. */
export function upsertRuleVersion(db: Db, row: RuleVersionRowValues): void {
  db.run('DELETE FROM rule_versions WHERE rule_pk = ? AND version = ? AND id != ?', [row.rule_pk, row.version, row.id]);
  db.run(
    `${insertSql('rule_versions', VERSION_COLUMNS)} ON CONFLICT(id) DO UPDATE SET snapshot = excluded.snapshot`,
    VERSION_COLUMNS.map((c) => row[c]),
  );
}

export function setRuleVersionSnapshot(db: Db, id: string, snapshot: string): void {
  db.run('UPDATE rule_versions SET snapshot = ? WHERE id = ?', [snapshot, id]);
}
