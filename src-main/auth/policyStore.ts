// The policy tables — policies and policy_versions — are written here and
// nowhere else: by the API's services (create, update, archive), by sync
// (the remote's policies and versions, merged fields, ids the remote gave) and
// for the default policy a new organization starts with (auth/cedar, migration 0015).
// It sits in auth so that the organization's creation and the migration can reach it.
// Only the SQL: what a version is and when one is made stay with their callers.
import type { Database } from 'better-sqlite3';
import type { Db, SqlValue } from '../db/database';
import { recordTable } from '../db/recordTable';

type Values<K extends string> = Readonly<Partial<Record<K, SqlValue>>>;

const columnsOf = (values: Readonly<Record<string, SqlValue | undefined>>) => Object.keys(values).filter((c) => values[c] !== undefined);
const valuesOf = (values: Readonly<Record<string, SqlValue | undefined>>, columns: readonly string[]) =>
  columns.map((c) => values[c] as SqlValue);
const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table}(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;

type PolicyColumn =
  | 'id'
  | 'organization_id'
  | 'name'
  | 'description'
  | 'cedar_policy'
  | 'policy_version_id'
  | 'version'
  | 'version_notes'
  | 'generated_change_message'
  | 'created_by_user_id'
  | 'modified_by_user_id'
  | 'created_date'
  | 'modified_date'
  | 'archived_date';
type VersionColumn =
  | 'id'
  | 'policy_pk'
  | 'version'
  | 'version_notes'
  | 'generated_change_message'
  | 'cedar_policy'
  | 'created_by_user_id'
  | 'created_date'
  | 'pulled';

/** Inserts a policy; returns its pk. */
export function insertPolicyRow(db: Db, row: Values<PolicyColumn>): number {
  const columns = columnsOf(row);
  return Number(db.run(insertSql('policies', columns), valuesOf(row, columns)).lastInsertRowid);
}

/** A remote policy upserted by id: every column but its id and organization takes the remote's value. */
export function upsertRemotePolicy(db: Db, row: Values<PolicyColumn> & { id: string }): void {
  const columns = columnsOf(row);
  const update = [
    'name',
    'description',
    'cedar_policy',
    'policy_version_id',
    'version',
    'version_notes',
    'generated_change_message',
    'created_by_user_id',
    'modified_by_user_id',
    'created_date',
    'modified_date',
    'archived_date',
  ];
  db.run(
    `${insertSql('policies', columns)} ON CONFLICT(id) DO UPDATE SET ${update.map((c) => `${c} = excluded.${c}`).join(', ')}`,
    valuesOf(row, columns),
  );
}

export function setPolicyColumns(db: Db, pk: number, values: Values<Exclude<PolicyColumn, 'id' | 'organization_id'>>): void {
  const columns = columnsOf(values);
  if (columns.length)
    db.run(`UPDATE policies SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE pk = ?`, [...valuesOf(values, columns), pk]);
}

/** A policy made offline takes the id the remote gave it. */
export const policyRows = recordTable('policies');

/** Inserts a version (`ifAbsent`: unless one with its id or number is there). */
export function insertPolicyVersionRow(db: Db, row: Values<VersionColumn>, options: { ifAbsent?: boolean } = {}): void {
  const columns = columnsOf(row);
  db.run(`${insertSql('policy_versions', columns)}${options.ifAbsent ? ' ON CONFLICT DO NOTHING' : ''}`, valuesOf(row, columns));
}

export function setPolicyVersionNotes(db: Db, versionId: string, notes: string | null): void {
  db.run('UPDATE policy_versions SET version_notes = ? WHERE id = ?', [notes, versionId]);
}

/** Removes a version numbered `version` other than `keepId` and the policy's current one (a local one the remote's replaces). */
export function deleteOtherPolicyVersion(db: Db, policyPk: number, version: number, keepId: string): void {
  db.run(
    'DELETE FROM policy_versions WHERE policy_pk = ? AND version = ? AND id != ? AND id != (SELECT policy_version_id FROM policies WHERE pk = ?)',
    [policyPk, version, keepId, policyPk],
  );
}

export function deletePolicyVersionsAbove(db: Db, policyPk: number, version: number): void {
  db.run('DELETE FROM policy_versions WHERE policy_pk = ? AND version > ?', [policyPk, version]);
}

/** Versions a replica made here for its own edits (not pulled), other than the current one: see migration 0016. */
export function deleteStandInPolicyVersions(db: Db, policyPk: number, currentVersionId: string): void {
  db.run('DELETE FROM policy_versions WHERE policy_pk = ? AND pulled = 0 AND id != ?', [policyPk, currentVersionId]);
}

export function deletePolicyVersion(db: Db, versionId: string): void {
  db.run('DELETE FROM policy_versions WHERE id = ?', [versionId]);
}

/** The current version made here for a configuration still to push moves to number `version` (above the remote's). */
export function renumberCurrentPolicyVersion(db: Db, policyPk: number, versionId: string, version: number): void {
  db.run('UPDATE policy_versions SET version = ? WHERE id = ?', [version, versionId]);
  db.run('UPDATE policies SET version = ? WHERE pk = ?', [version, policyPk]);
}

/** A policy and its version 1 written with no author: an organization's default policy (auth/defaultPolicy.ts). */
export function insertUnauthoredPolicy(
  db: Pick<Database, 'prepare'>,
  p: {
    id: string;
    organizationId: string;
    name: string;
    description: string;
    text: string;
    versionId: string;
    message: string;
    now: number;
  },
): void {
  const info = db
    .prepare(
      `INSERT INTO policies(id, organization_id, name, description, cedar_policy, policy_version_id, version, version_notes, generated_change_message,
         created_by_user_id, modified_by_user_id, created_date, modified_date)
       VALUES (?, ?, ?, ?, ?, ?, 1, NULL, ?, '', '', ?, ?)`,
    )
    .run(p.id, p.organizationId, p.name, p.description, p.text, p.versionId, p.message, p.now, p.now);
  db.prepare(
    `INSERT INTO policy_versions(id, policy_pk, version, version_notes, generated_change_message, cedar_policy, created_by_user_id, created_date)
     VALUES (?, ?, 1, NULL, ?, ?, '', ?)`,
  ).run(p.versionId, info.lastInsertRowid, p.message, p.text, p.now);
}
