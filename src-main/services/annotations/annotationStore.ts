// The annotation tables' rows — `annotations` and its child rows (tags, assets,
// linked channels, metadata) — are written here and nowhere else: by the API's
// services (one validated record at a time), by sync (remote versions, one
// record or a page at a time, with prepared multi-row statements) and by bulk
// loads (the demo seed, benchmarks). The store speaks in stored values (epoch
// micros, enum numbers); mapping the wire's form to them is its callers' job.
// Reading rows back as the API's Annotation is annotationRows.ts.
import type { Statement } from 'better-sqlite3';
import type { LinkedChannelInput } from '../../../src-shared/api/annotations';
import { metadataInputToRow, type MetadataValueInput } from '../../../src-shared/api/metadata';
import { METADATA_COLUMNS, metadataColumnValues, replaceList, replaceMetadata } from '../../db/childRows';
import type { Db, SqlValue } from '../../db/database';
import { ANNOTATION_COLUMNS, type AnnotationColumn } from './annotationFields';
import { keptColumnsWritten, keptRowsStale, keptTagsWritten } from './annotationPageQueries';
import { LINKED_CHANNEL_KIND } from './annotationRows';
import { recordTable } from '../../db/recordTable';

/** A whole annotation row as stored (times in epoch micros, state and type as enum numbers). */
export type AnnotationRowValues = Readonly<Record<AnnotationColumn, SqlValue>>;

/** An annotation's child rows: each list replaces the stored one, in order. */
export interface AnnotationChildren {
  readonly tags: readonly string[];
  readonly assetIds: readonly string[];
  readonly linkedChannels: readonly LinkedChannelInput[];
  readonly metadata: readonly MetadataValueInput[];
}

const COLUMNS = ANNOTATION_COLUMNS.join(', ');
/** Appends a row's values in column order to `out`: an indexed loop, as every row of an initial pull goes through it. */
function pushValues(out: unknown[], row: AnnotationRowValues): void {
  for (let c = 0; c < ANNOTATION_COLUMNS.length; c++) out.push(row[ANNOTATION_COLUMNS[c]]);
}

const valuesOf = (row: AnnotationRowValues): SqlValue[] => {
  const out: SqlValue[] = [];
  pushValues(out, row);
  return out;
};

/** A linked channel as its row's (kind, channel_id, bit_field_name, calculated_channel_version_id). */
function linkedChannelValues(c: LinkedChannelInput): [number, string | null, string | null, string | null] {
  const kind = c.channel
    ? LINKED_CHANNEL_KIND.channel
    : c.bitFieldElement
      ? LINKED_CHANNEL_KIND.bitFieldElement
      : LINKED_CHANNEL_KIND.calculatedChannel;
  return [
    kind,
    c.channel?.channelId ?? c.bitFieldElement?.channelId ?? null,
    c.bitFieldElement?.bitFieldName ?? null,
    c.calculatedChannel?.calculatedChannelVersionId ?? null,
  ];
}

const LINKED_CHANNEL_INSERT =
  'INSERT INTO annotation_linked_channels(annotation_pk, position, kind, channel_id, bit_field_name, calculated_channel_version_id) VALUES (?, ?, ?, ?, ?, ?)';

// ---- one record (the services, sync's per-field merge) ----------------------

/** Inserts a new annotation row and its children; returns its pk. */
export function insertAnnotation(db: Db, id: string, row: AnnotationRowValues, children: AnnotationChildren): number {
  const pk = Number(
    db.run(`INSERT INTO annotations(id, ${COLUMNS}) VALUES (?, ${ANNOTATION_COLUMNS.map(() => '?').join(', ')})`, [id, ...valuesOf(row)])
      .lastInsertRowid,
  );
  replaceAnnotationTags(db, pk, children.tags);
  replaceAnnotationAssets(db, pk, children.assetIds);
  replaceAnnotationLinkedChannels(db, pk, children.linkedChannels);
  replaceAnnotationMetadata(db, pk, children.metadata);
  return pk;
}

/**
 * Writes the named columns only: SQLite rewrites the entries of every index on a column the SET names, changed or
 * not (a name edit would otherwise rewrite the start, end, state and assignee indexes too).
 */
export function setAnnotationColumns(db: Db, pk: number, values: Partial<AnnotationRowValues>): void {
  const columns = (Object.keys(values) as AnnotationColumn[]).filter((c) => values[c] !== undefined);
  if (columns.length === 0) return;
  db.run(`UPDATE annotations SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE pk = ?`, [
    ...columns.map((c) => values[c] as SqlValue),
    pk,
  ]);
  keptColumnsWritten(db, pk, Object.fromEntries(columns.map((c) => [c, values[c]])));
}

/** Sets the archive date unless it already is that; returns whether it changed. */
export function setAnnotationArchivedDate(db: Db, pk: number, archivedDate: number | null): boolean {
  const changed =
    db.run('UPDATE annotations SET archived_date = ? WHERE pk = ? AND archived_date IS NOT ?', [archivedDate, pk, archivedDate]).changes >
    0;
  if (changed) keptColumnsWritten(db, pk, { archived_date: archivedDate });
  return changed;
}

/** An offline-created annotation takes the id the remote gave it. */
export const annotationRows = recordTable('annotations');

/** The tables of an annotation's repeated fields, keyed by its pk. */
const ANNOTATION_CHILD_TABLES = ['annotation_tags', 'annotation_assets', 'annotation_linked_channels', 'annotation_metadata'] as const;
/** Every table holding annotations (a bulk load defers their indexes: db/bulkLoad.ts). */
export const ANNOTATION_TABLES = ['annotations', ...ANNOTATION_CHILD_TABLES] as const;

export function replaceAnnotationTags(db: Db, pk: number, tags: readonly string[]): boolean {
  const changed = replaceList(db, 'annotation_tags', 'annotation_pk', 'tag_name', pk, tags);
  keptTagsWritten(db, pk, [...new Set(tags)]);
  return changed;
}

export function replaceAnnotationAssets(db: Db, pk: number, assetIds: readonly string[]): boolean {
  keptRowsStale(db, pk);
  return replaceList(db, 'annotation_assets', 'annotation_pk', 'asset_id', pk, assetIds);
}

/** Duplicate keys are refused, naming `field`. */
export function replaceAnnotationMetadata(db: Db, pk: number, metadata: readonly MetadataValueInput[], field = 'metadata'): boolean {
  keptRowsStale(db, pk);
  return replaceMetadata(db, 'annotation_metadata', 'annotation_pk', pk, metadata, field);
}

export function replaceAnnotationLinkedChannels(db: Db, pk: number, channels: readonly LinkedChannelInput[]): void {
  keptRowsStale(db, pk);
  db.run('DELETE FROM annotation_linked_channels WHERE annotation_pk = ?', [pk]);
  channels.forEach((c, i) => db.run(LINKED_CHANNEL_INSERT, [pk, i, ...linkedChannelValues(c)]));
}

// ---- many records (sync's pull pages) ---------------------------------------

/** Rows per multi-row INSERT (well under SQLite's bound-parameter limit at 23 columns). */
const MULTI_ROWS = 100;

/** Prepared statements for writing whole records, one or a page at a time (sync's apply holds one per database). */
export class AnnotationRowWriter {
  private readonly updateRow: Statement;
  private readonly deleteChildren: Statement[];
  private readonly tag: Statement;
  private readonly asset: Statement;
  private readonly channel: Statement;
  private readonly meta: Statement;
  private readonly multiRow = new Map<string, Statement>();

  constructor(private readonly db: Db) {
    const raw = db.raw;
    this.updateRow = raw.prepare(`UPDATE annotations SET ${ANNOTATION_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE pk = ?`);
    this.deleteChildren = ANNOTATION_CHILD_TABLES.map((t) => raw.prepare(`DELETE FROM ${t} WHERE annotation_pk = ?`));
    this.tag = raw.prepare('INSERT OR IGNORE INTO annotation_tags(annotation_pk, tag_name, position) VALUES (?, ?, ?)');
    this.asset = raw.prepare('INSERT OR IGNORE INTO annotation_assets(annotation_pk, asset_id, position) VALUES (?, ?, ?)');
    this.channel = raw.prepare(LINKED_CHANNEL_INSERT);
    this.meta = raw.prepare(
      `INSERT OR REPLACE INTO annotation_metadata(annotation_pk, ${METADATA_COLUMNS}, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  private children(pk: number, c: AnnotationChildren): void {
    for (let i = 0; i < c.tags.length; i++) this.tag.run(pk, c.tags[i], i);
    for (let i = 0; i < c.assetIds.length; i++) this.asset.run(pk, c.assetIds[i], i);
    c.linkedChannels.forEach((l, i) => this.channel.run(pk, i, ...linkedChannelValues(l)));
    c.metadata.forEach((m, i) => {
      this.meta.run(pk, ...metadataColumnValues(metadataInputToRow(m)), i);
    });
  }

  /** Replaces every column and child row. */
  overwrite(pk: number, row: AnnotationRowValues, children: AnnotationChildren): void {
    keptRowsStale(this.db, pk);
    this.updateRow.run(...valuesOf(row), pk);
    for (const d of this.deleteChildren) d.run(pk);
    this.children(pk, children);
  }

  /** A cached multi-row INSERT of `rows` rows (`width` values each). */
  private multi(table: string, columns: string, width: number, rows: number, suffix = ''): Statement {
    const key = `${table}\u0000${rows}`;
    let st = this.multiRow.get(key);
    if (!st) {
      const one = `(${Array.from({ length: width }, () => '?').join(', ')})`;
      st = this.db.raw.prepare(
        `INSERT OR IGNORE INTO ${table}(${columns}) VALUES ${Array.from({ length: rows }, () => one).join(', ')}${suffix}`,
      );
      this.multiRow.set(key, st);
    }
    return st;
  }

  /** `values` holds the rows one after another (`width` values each); bound as one array, not spread into arguments. */
  private insertRows(table: string, columns: string, width: number, values: unknown[]): void {
    const step = MULTI_ROWS * width;
    for (let i = 0; i < values.length; i += step) {
      const chunk = values.slice(i, i + step);
      this.multi(table, columns, width, chunk.length / width).run(chunk);
    }
  }

  /** New records of a pull page: one multi-row statement per table and chunk instead of a statement per row. Returns their pks by id. */
  insertMany(
    records: readonly { readonly id: string; readonly row: AnnotationRowValues; readonly children: AnnotationChildren }[],
  ): Map<string, number> {
    const pkOf = new Map<string, number>();
    if (records.length === 0) return pkOf;
    const width = ANNOTATION_COLUMNS.length + 1;
    for (let i = 0; i < records.length; i += MULTI_ROWS) {
      const chunk = records.slice(i, i + MULTI_ROWS);
      const values: unknown[] = [];
      for (const r of chunk) {
        values.push(r.id);
        pushValues(values, r.row);
      }
      for (const r of this.multi('annotations', `id, ${COLUMNS}`, width, chunk.length, ' RETURNING pk, id').all(values) as {
        pk: number;
        id: string;
      }[]) {
        pkOf.set(r.id, r.pk);
      }
    }
    const tags: unknown[] = [];
    const assets: unknown[] = [];
    const channels: unknown[] = [];
    const meta: unknown[] = [];
    for (const { id, children: c } of records) {
      const pk = pkOf.get(id)!;
      c.tags.forEach((t, i) => tags.push(pk, t, i));
      c.assetIds.forEach((x, i) => assets.push(pk, x, i));
      c.linkedChannels.forEach((l, i) => channels.push(pk, i, ...linkedChannelValues(l)));
      c.metadata.forEach((m, i) => {
        meta.push(pk, ...metadataColumnValues(metadataInputToRow(m)), i);
      });
    }
    this.insertRows('annotation_tags', 'annotation_pk, tag_name, position', 3, tags);
    this.insertRows('annotation_assets', 'annotation_pk, asset_id, position', 3, assets);
    this.insertRows(
      'annotation_linked_channels',
      'annotation_pk, position, kind, channel_id, bit_field_name, calculated_channel_version_id',
      6,
      channels,
    );
    this.insertRows('annotation_metadata', `annotation_pk, ${METADATA_COLUMNS}, position`, 10, meta);
    return pkOf;
  }
}

// ---- bulk loads (the demo seed, benchmarks) ---------------------------------

/** An already-validated record for a bulk load (no history, no outbox): the seed's compact form. */
export interface AnnotationRecord {
  id: string;
  organizationId: string;
  name: string;
  description: string;
  startTime: number;
  endTime: number;
  createdByUserId: string;
  createdDate: number;
  runId: string | null;
  state: number | null;
  assignedToUserId: string;
  annotationType: number;
  archivedDate: number | null;
  tags: readonly string[];
  assetIds: readonly string[];
  channelIds: readonly string[];
  /** [key, type number, string, number, boolean] */
  metadata: readonly (readonly [string, number, string | null, number | null, number | null])[];
}

/** Inserts one record in the caller's transaction; returns its pk, or undefined when the id already exists. */
export type InsertAnnotationRecord = (r: AnnotationRecord) => number | undefined;

/** Annotations per flush of the buffered child rows (each child table's rows go in multi-row statements of up to MULTI_ROWS). */
const BULK_CHILD_BATCH = 100;

/**
 * Runs `fn` with an inserter of already-validated records, in the caller's transaction. Each annotation row is
 * one statement (its pk, and OR IGNORE for an id already held); its child rows are buffered and written in
 * multi-row statements, the last of them when `fn` returns: a statement per child row was most of a bulk load's
 * statements (~5 of 6 per annotation with the seed's tags, asset, channel and metadata).
 */
export function withAnnotationBulkInserter<T>(db: Db, fn: (insert: InsertAnnotationRecord) => T): T {
  const raw = db.raw;
  const annotation = raw.prepare(
    `INSERT OR IGNORE INTO annotations(id, organization_id, name, description, start_time, end_time, created_by_user_id, modified_by_user_id,
       created_date, modified_date, run_id, state, assigned_to_user_id, annotation_type, archived_date)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const children = new ChildRowBuffer(db);
  let pending = 0;
  const insert: InsertAnnotationRecord = (r) => {
    const info = annotation.run(
      r.id,
      r.organizationId,
      r.name,
      r.description,
      r.startTime,
      r.endTime,
      r.createdByUserId,
      r.createdByUserId,
      r.createdDate,
      r.createdDate,
      r.runId,
      r.state,
      r.assignedToUserId,
      r.annotationType,
      r.archivedDate,
    );
    if (!info.changes) return undefined;
    const pk = Number(info.lastInsertRowid);
    for (let i = 0; i < r.tags.length; i++) children.tags.push(pk, r.tags[i], i);
    for (let i = 0; i < r.assetIds.length; i++) children.assets.push(pk, r.assetIds[i], i);
    for (let i = 0; i < r.channelIds.length; i++) children.channels.push(pk, i, LINKED_CHANNEL_KIND.channel, r.channelIds[i], null, null);
    for (let i = 0; i < r.metadata.length; i++) {
      const m = r.metadata[i];
      children.metadata.push(pk, m[0], m[1], m[2], m[3], m[4], i);
    }
    if (++pending >= BULK_CHILD_BATCH) {
      children.flush();
      pending = 0;
    }
    return pk;
  };
  const out = fn(insert);
  children.flush();
  return out;
}

/** A bulk load's child rows, buffered flat (the values of one row after another) until flushed in multi-row statements. */
class ChildRowBuffer {
  readonly tags: SqlValue[] = [];
  readonly assets: SqlValue[] = [];
  readonly channels: SqlValue[] = [];
  readonly metadata: SqlValue[] = [];
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  flush(): void {
    this.write('annotation_tags', 'annotation_pk, tag_name, position', 3, this.tags);
    this.write('annotation_assets', 'annotation_pk, asset_id, position', 3, this.assets);
    this.write(
      'annotation_linked_channels',
      'annotation_pk, position, kind, channel_id, bit_field_name, calculated_channel_version_id',
      6,
      this.channels,
    );
    this.write('annotation_metadata', 'annotation_pk, key, type, string_value, number_value, boolean_value, position', 7, this.metadata);
  }

  private write(table: string, columns: string, width: number, values: SqlValue[]): void {
    const step = MULTI_ROWS * width;
    for (let i = 0; i < values.length; i += step) {
      const chunk = values.slice(i, i + step);
      const rows = chunk.length / width;
      const key = `${table}\u0000${rows}`;
      let st = this.statements.get(key);
      if (!st) {
        const one = `(${Array.from({ length: width }, () => '?').join(', ')})`;
        st = this.db.raw.prepare(`INSERT INTO ${table}(${columns}) VALUES ${Array.from({ length: rows }, () => one).join(', ')}`);
        this.statements.set(key, st);
      }
      st.run(chunk);
    }
    values.length = 0;
  }
}
