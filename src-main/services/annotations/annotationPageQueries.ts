// The statements that load a page of annotations (a list page, a batch
// result): rows and child rows of many pks at once. They run in raw mode
// (arrays, not objects): better-sqlite3 builds a named-property object per row
// through the V8 API, which cost more than the query itself for the 24-column
// annotations rows (ListAnnotations, bench/sync.ts: ~8.5 of the remote's
// ~44 us per listed annotation, half of that with arrays).
//
// Every statement returns its rows ordered by annotation pk, which the
// `IN (json_each)` lookup yields for free (it probes the pks in sorted order),
// so the caller merges the five results in one pass with no map per table.
// Within one annotation, child rows come in the table's primary-key order
// (tag name, asset id, metadata key) and the caller restores `position`
// order: `ORDER BY annotation_pk, position` made SQLite sort every page
// through a temp b-tree, 0.3 to 0.9 us per listed annotation and child table
// (bench/listing.ts), for lists that are mostly one element long.
import type { Statement } from 'better-sqlite3';
import { MetadataKeyType } from '../../../src-shared/api/metadata';
import type { Db } from '../../db/database';
import { ANNOTATION_COLUMNS } from './annotationFields';

const PKS = '(SELECT value FROM json_each(?))';
const { METADATA_KEY_TYPE_NUMBER: NUMBER, METADATA_KEY_TYPE_BOOLEAN: BOOLEAN } = MetadataKeyType.numbers;

/** The annotations columns of a raw row, in order (`ANNOTATION_COLUMN` names their indexes). */
export const ROW_COLUMNS = ['pk', 'id', ...ANNOTATION_COLUMNS] as const;

export const ANNOTATION_COLUMN = Object.fromEntries(ROW_COLUMNS.map((c, i) => [c, i])) as {
  readonly [C in (typeof ROW_COLUMNS)[number]]: number;
};

/**
 * Child rows, raw: [annotation_pk, position, ...values]. Values per table:
 * tags [tag_name], assets [asset_id], metadata [key, type, value],
 * channels [kind, channel_id, bit_field_name, calculated_channel_version_id].
 * (metadata: [key, type, value, archived_date, key_archived_date, key_filter_field_type])
 */
export type ChildTable = 'tags' | 'assets' | 'metadata' | 'channels';

const CHILD_SELECT: Record<ChildTable, { table: string; columns: string }> = {
  tags: { table: 'annotation_tags', columns: 'tag_name' },
  assets: { table: 'annotation_assets', columns: 'asset_id' },
  // The one value column the key type reads (number, boolean, else the string): every value crossing into
  // JavaScript costs, and two fewer per metadata row took ~0.5 us off each listed annotation (bench/listing.ts).
  metadata: {
    table: 'annotation_metadata',
    columns: `key, type, CASE type WHEN ${NUMBER} THEN number_value WHEN ${BOOLEAN} THEN boolean_value ELSE string_value END, archived_date, key_archived_date, key_filter_field_type`,
  },
  channels: { table: 'annotation_linked_channels', columns: 'kind, channel_id, bit_field_name, calculated_channel_version_id' },
};

type PageStatements = { rows: Statement; one: Statement } & Record<ChildTable, Statement> & { oneChild: Record<ChildTable, Statement> };

const statements = new WeakMap<Db, PageStatements>();

function statementsOf(db: Db): PageStatements {
  let s = statements.get(db);
  if (!s) {
    const raw = (sql: string) => db.raw.prepare(sql).raw(true);
    const child = (t: ChildTable, where: string) =>
      raw(`SELECT annotation_pk, position, ${CHILD_SELECT[t].columns} FROM ${CHILD_SELECT[t].table} WHERE ${where} ORDER BY annotation_pk`);
    // One record (every write returns the record it changed): plain `= ?` lookups, which cost less than json_each there.
    const oneChild = (t: ChildTable) =>
      raw(`SELECT annotation_pk, position, ${CHILD_SELECT[t].columns} FROM ${CHILD_SELECT[t].table} WHERE annotation_pk = ?`);
    s = {
      rows: raw(`SELECT ${ROW_COLUMNS.join(', ')} FROM annotations WHERE pk IN ${PKS} ORDER BY pk`),
      one: raw(`SELECT ${ROW_COLUMNS.join(', ')} FROM annotations WHERE pk = ?`),
      tags: child('tags', `annotation_pk IN ${PKS}`),
      assets: child('assets', `annotation_pk IN ${PKS}`),
      metadata: child('metadata', `annotation_pk IN ${PKS}`),
      channels: child('channels', `annotation_pk IN ${PKS}`),
      oneChild: { tags: oneChild('tags'), assets: oneChild('assets'), metadata: oneChild('metadata'), channels: oneChild('channels') },
    };
    statements.set(db, s);
  }
  return s;
}

// (A raw row: its columns by position; the page readers know each column's type.)
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Raw = any[];

export interface PageRows {
  /** Annotation rows (ROW_COLUMNS) of the distinct pks found, by ascending pk. */
  readonly rows: Raw[];
  /** Child rows by ascending annotation pk; within one annotation in primary-key order, not position order. */
  readonly children: Record<ChildTable, Raw[]>;
}

/** One annotation's rows as the page statements read them. */
interface RecordRows {
  row: Raw;
  children: Record<ChildTable, Raw[]>;
}

/** The rows a batch read once for all its items (Db.joinedValue): by pk, and the pk of each id. */
interface BatchRows {
  readonly byPk: Map<number, RecordRows>;
  readonly pkOfId: Map<string, number>;
}

const BATCH_ROWS = {};
const batchRowsOf = (db: Db) => db.joinedValue<BatchRows>(BATCH_ROWS, () => ({ byPk: new Map(), pkOfId: new Map() }));

/**
 * The rows and child rows of `pks`, read in one go; inside a batch (Db.joined) they are also kept, so that every
 * later read of one of these records in the batch (its authorization, merge base, write and read-back) takes them
 * from here instead of reading the row again. The store (annotationStore.ts) keeps them right as it writes.
 */
export function batchPageRows(db: Db, pks: readonly number[]): PageRows {
  const page = pageRows(db, pks);
  const kept = batchRowsOf(db);
  if (!kept) return page;
  const cursors = CHILD_TABLES.map((t) => childRows(page.children[t]));
  for (const row of page.rows) {
    const pk: number = row[ANNOTATION_COLUMN.pk];
    const children = Object.fromEntries(CHILD_TABLES.map((t, i) => [t, cursors[i](pk)])) as Record<ChildTable, Raw[]>;
    kept.byPk.set(pk, { row, children });
    kept.pkOfId.set(row[ANNOTATION_COLUMN.id], pk);
  }
  return page;
}

/** The kept raw row of the annotation with this id, if the batch read it. */
export function keptRowOfId(db: Db, id: string): Raw | undefined {
  const kept = batchRowsOf(db);
  const pk = kept?.pkOfId.get(id);
  return pk === undefined ? undefined : kept!.byPk.get(pk)?.row;
}

/** The store wrote these columns of `pk`: a kept row takes the values as written. */
export function keptColumnsWritten(db: Db, pk: number, values: Readonly<Record<string, unknown>>): void {
  const kept = batchRowsOf(db)?.byPk.get(pk);
  if (!kept) return;
  const row = [...kept.row];
  for (const [column, value] of Object.entries(values)) {
    const at = (ANNOTATION_COLUMN as Record<string, number>)[column];
    if (at === undefined) throw new Error(`annotation rows: no column ${column}`);
    row[at] = value;
  }
  kept.row = row;
}

/** The store replaced `pk`'s tags with `tags` (as stored: each once, in order). */
export function keptTagsWritten(db: Db, pk: number, tags: readonly string[]): void {
  const kept = batchRowsOf(db)?.byPk.get(pk);
  if (kept) kept.children = { ...kept.children, tags: tags.map((tag, position) => [pk, position, tag]) };
}

/** The store wrote `pk`'s rows otherwise: a kept copy is dropped (read again when next needed). */
export function keptRowsStale(db: Db, pk: number): void {
  batchRowsOf(db)?.byPk.delete(pk);
}

const CHILD_TABLES: readonly ChildTable[] = ['tags', 'assets', 'metadata', 'channels'];

/** Walks child rows sorted by annotation pk: the rows of each pk in ascending order, as stored (unsorted within one). */
function childRows(rows: readonly Raw[]): (pk: number) => Raw[] {
  let i = 0;
  return (pk) => {
    while (i < rows.length && rows[i][0] < pk) i++;
    const start = i;
    while (i < rows.length && rows[i][0] === pk) i++;
    return rows.slice(start, i);
  };
}

/** The rows and child rows of `pks` (any order, duplicates allowed; missing pks have no rows). */
export function pageRows(db: Db, pks: readonly number[]): PageRows {
  const s = statementsOf(db);
  if (pks.length === 1) {
    const pk = pks[0];
    const kept = batchRowsOf(db)?.byPk.get(pk);
    if (kept) return { rows: [kept.row], children: kept.children };
    const rows = s.one.all(pk) as Raw[];
    const none: Raw[] = [];
    if (rows.length === 0) return { rows, children: { tags: none, assets: none, metadata: none, channels: none } };
    const c = s.oneChild;
    return {
      rows,
      children: {
        tags: c.tags.all(pk) as Raw[],
        assets: c.assets.all(pk) as Raw[],
        metadata: c.metadata.all(pk) as Raw[],
        channels: c.channels.all(pk) as Raw[],
      },
    };
  }
  const json = JSON.stringify(pks);
  return {
    rows: s.rows.all(json) as Raw[],
    children: {
      tags: s.tags.all(json) as Raw[],
      assets: s.assets.all(json) as Raw[],
      metadata: s.metadata.all(json) as Raw[],
      channels: s.channels.all(json) as Raw[],
    },
  };
}

const byPosition = (a: Raw, b: Raw) => a[1] - b[1];

/**
 * Walks one child table's rows (sorted by annotation pk) alongside the annotations: call the returned
 * function with each annotation's pk in ascending order; it returns that annotation's values (`fn` of each
 * raw row) in position order.
 */
export function childCursor<T>(rows: readonly Raw[], fn: (r: Raw) => T): (pk: number) => T[] {
  let i = 0;
  return (pk) => {
    // Skips rows of pks with no annotation row (none while foreign keys hold).
    while (i < rows.length && rows[i][0] < pk) i++;
    const start = i;
    let ordered = true;
    while (i < rows.length && rows[i][0] === pk) {
      if (i > start && rows[i][1] < rows[i - 1][1]) ordered = false;
      i++;
    }
    const out: T[] = [];
    if (ordered) {
      for (let k = start; k < i; k++) out.push(fn(rows[k]));
    } else {
      for (const r of rows.slice(start, i).sort(byPosition)) out.push(fn(r));
    }
    return out;
  };
}
