// The `saved_searches` rows are written here and nowhere else: by the API's
// services and by sync (remote versions, per-field merges, deletions the
// remote made, ids the remote gave offline creates). Properties are stored as
// the JSON text of their stored document (savedSearchProperties.ts).
import type { Db } from '../../db/database';
import { recordTable } from '../../db/recordTable';

/** A whole saved-search row as stored (its pk aside). */
export interface SavedSearchRowValues {
  readonly id: string;
  readonly organization_id: string;
  readonly name: string;
  readonly properties: string;
  readonly created_by_user_id: string;
  readonly modified_by_user_id: string;
  readonly created_date: number | null;
  readonly modified_date: number | null;
}

const COLUMN_NAMES = [
  'id',
  'organization_id',
  'name',
  'properties',
  'created_by_user_id',
  'modified_by_user_id',
  'created_date',
  'modified_date',
] as const;
type SavedSearchColumn = (typeof COLUMN_NAMES)[number];
const INSERT = `INSERT INTO saved_searches(${COLUMN_NAMES.join(', ')}) VALUES (${COLUMN_NAMES.map(() => '?').join(', ')})`;

/** Inserts a new saved search; returns its pk. */
export function insertSavedSearch(db: Db, row: SavedSearchRowValues): number {
  return Number(
    db.run(
      INSERT,
      COLUMN_NAMES.map((c) => row[c]),
    ).lastInsertRowid,
  );
}

/** Inserts the row, or replaces every column of the one with its id (a remote version). */
export function upsertSavedSearch(db: Db, row: SavedSearchRowValues): void {
  db.run(
    `${INSERT} ON CONFLICT(id) DO UPDATE SET name = excluded.name, properties = excluded.properties, modified_by_user_id = excluded.modified_by_user_id,
       created_by_user_id = excluded.created_by_user_id, created_date = excluded.created_date, modified_date = excluded.modified_date`,
    COLUMN_NAMES.map((c) => row[c]),
  );
}

/** Writes the named columns of one saved search. */
export function setSavedSearchColumns(db: Db, pk: number, values: Partial<Omit<SavedSearchRowValues, 'id' | 'organization_id'>>): void {
  const columns = (Object.keys(values) as SavedSearchColumn[]).filter((c) => values[c as keyof typeof values] !== undefined);
  if (columns.length === 0) return;
  db.run(`UPDATE saved_searches SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE pk = ?`, [
    ...columns.map((c) => values[c as keyof typeof values] as string | number | null),
    pk,
  ]);
}

export function deleteSavedSearchesByPk(db: Db, pks: readonly number[]): void {
  db.run('DELETE FROM saved_searches WHERE pk IN (SELECT value FROM json_each(?))', [JSON.stringify(pks)]);
}

/** An offline-created saved search takes the id the remote gave it. */
export const savedSearchRows = recordTable('saved_searches');

/** Saved searches that name a record by an id it no longer has (an offline create that got its remote id) name the new one. */
export function replaceIdInSavedSearches(db: Db, fromId: string, toId: string): void {
  db.run('UPDATE saved_searches SET properties = replace(properties, ?, ?) WHERE instr(properties, ?) > 0', [
    `"${fromId}"`,
    `"${toId}"`,
    `"${fromId}"`,
  ]);
}
