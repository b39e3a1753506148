// Repeated fields live in child tables keyed by the parent's integer pk
// (`<parent>_tags`, `<parent>_metadata`, ...). These helpers write and batch-load
// them. Table and column names are compile-time constants of the services,
// never request data.
import { ApiError } from '../../src-shared/errors';
import {
  MetadataKeyType,
  metadataInputToRow,
  metadataRowToWire,
  type MetadataKeyTypeName,
  type MetadataRow,
  type MetadataValue,
  type MetadataValueInput,
} from '../../src-shared/api/metadata';
import type { Db } from './database';

const PKS = '(SELECT value FROM json_each(?))';

/**
 * Replaces a parent's list (deduplicated, in order). Returns whether it changed: a list equal to the stored
 * one (same values at the same positions) is left as it is.
 */
export function replaceList(db: Db, table: string, fk: string, column: string, pk: number, values: readonly string[]): boolean {
  const unique = [...new Set(values)];
  const current = db.all<{ v: unknown; position: number }>(
    `SELECT ${column} AS v, position FROM ${table} WHERE ${fk} = ? ORDER BY position`,
    [pk],
  );
  if (current.length === unique.length && current.every((r, i) => r.position === i && r.v === unique[i])) return false;
  db.run(`DELETE FROM ${table} WHERE ${fk} = ?`, [pk]);
  unique.forEach((v, i) => db.run(`INSERT INTO ${table}(${fk}, ${column}, position) VALUES (?, ?, ?)`, [pk, v, i]));
  return true;
}

export function loadLists(db: Db, table: string, fk: string, column: string, pks: readonly number[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const row of db.all<{ pk: number; v: string }>(
    `SELECT ${fk} AS pk, ${column} AS v FROM ${table} WHERE ${fk} IN ${PKS} ORDER BY ${fk}, position`,
    [JSON.stringify(pks)],
  )) {
    let list = out.get(row.pk);
    if (!list) out.set(row.pk, (list = []));
    list.push(row.v);
  }
  return out;
}

/** A value as SQLite stores it (NaN becomes NULL), for comparing stored rows with new ones. */
const stored = (v: unknown) => (typeof v === 'number' && Number.isNaN(v) ? null : (v ?? null));

/**
 * Replaces a parent's metadata (duplicate keys are refused). Returns whether it changed: metadata equal to the
 * stored one (same keys, types, values and order) is left as it is.
 */
export function replaceMetadata(
  db: Db,
  table: string,
  fk: string,
  pk: number,
  values: readonly MetadataValueInput[],
  field = 'metadata',
): boolean {
  const rows = values.map(metadataInputToRow);
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.key)) throw ApiError.invalid(field, `metadata key '${r.key}' appears more than once`);
    seen.add(r.key);
  }
  const current = db.all<MetadataColumns & { position: number }>(
    `SELECT ${METADATA_COLUMNS}, position FROM ${table} WHERE ${fk} = ? ORDER BY position`,
    [pk],
  );
  const same =
    current.length === rows.length &&
    current.every((c, i) => {
      const r = rows[i];
      return (
        c.position === i &&
        c.key === r.key &&
        c.type === stored(MetadataKeyType.numbers[r.type]) &&
        c.string_value === stored(r.stringValue) &&
        c.number_value === stored(r.numberValue) &&
        c.boolean_value === stored(r.booleanValue) &&
        c.archived_date === r.archivedDate &&
        c.key_archived_date === r.keyArchivedDate &&
        c.key_filter_field_type === r.keyFilterFieldType
      );
    });
  if (same) return false;
  db.run(`DELETE FROM ${table} WHERE ${fk} = ?`, [pk]);
  rows.forEach((r, i) =>
    db.run(`INSERT INTO ${table}(${fk}, ${METADATA_COLUMNS}, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      pk,
      ...metadataColumnValues(r),
      i,
    ]),
  );
  return true;
}

const typeByNumber = new Map<number, MetadataKeyTypeName>(MetadataKeyType.names.map((n) => [MetadataKeyType.numbers[n], n]));

export function loadMetadata(db: Db, table: string, fk: string, pks: readonly number[]): Map<number, MetadataValue[]> {
  const out = new Map<number, MetadataValue[]>();
  const rows = db.all<MetadataColumns & { pk: number }>(
    `SELECT ${fk} AS pk, ${METADATA_COLUMNS} FROM ${table} WHERE ${fk} IN ${PKS} ORDER BY ${fk}, position`,
    [JSON.stringify(pks)],
  );
  for (const r of rows) {
    let list = out.get(r.pk);
    if (!list) out.set(r.pk, (list = []));
    list.push(metadataRowToWire(metadataRowOf(r)));
  }
  return out;
}

/** The columns of one entry of a `*_metadata` table (parent key and position aside), in the order of metadataColumnValues. */
export const METADATA_COLUMNS =
  'key, type, string_value, number_value, boolean_value, archived_date, key_archived_date, key_filter_field_type';

interface MetadataColumns {
  key: string;
  type: number;
  string_value: string | null;
  number_value: number | null;
  boolean_value: number | null;
  archived_date: number | null;
  key_archived_date: number | null;
  key_filter_field_type: number | null;
}

/** A normalized entry's values for METADATA_COLUMNS. */
export const metadataColumnValues = (r: MetadataRow): (string | number | null)[] => [
  r.key,
  MetadataKeyType.numbers[r.type],
  r.stringValue,
  r.numberValue,
  r.booleanValue,
  r.archivedDate,
  r.keyArchivedDate,
  r.keyFilterFieldType,
];

const metadataRowOf = (r: MetadataColumns): MetadataRow => ({
  key: r.key,
  type: typeByNumber.get(r.type) ?? 'METADATA_KEY_TYPE_UNSPECIFIED',
  stringValue: r.string_value,
  numberValue: r.number_value,
  booleanValue: r.boolean_value,
  archivedDate: r.archived_date,
  keyArchivedDate: r.key_archived_date,
  keyFilterFieldType: r.key_filter_field_type,
});

/** Rows of a table by integer pk, in the order of `pks`. */
export function loadByPks<T extends { pk: number }>(db: Db, table: string, pks: readonly number[]): T[] {
  const rows = db.all<T>(`SELECT * FROM ${table} WHERE pk IN ${PKS}`, [JSON.stringify(pks)]);
  const byPk = new Map(rows.map((r) => [r.pk, r]));
  return pks.map((pk) => byPk.get(pk)).filter((r): r is T => r !== undefined);
}
