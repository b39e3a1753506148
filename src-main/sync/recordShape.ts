// A replicated record kind's fields, declared once. Each kind used to write
// its synced fields out by hand three or four times: the canonical fields of a
// wire record (what the merge compares and the merge base keeps), the row of a
// wire record, which columns one field writes, and its snapshot. A kind now
// declares, per synced field, its canonical form and where it lands (columns
// of its row, or a child table through its store), and the functions here
// derive the rest. The update_mask paths a client may send stay the services'
// (they validate them); a field names its paths only when they are not just
// its own name (the members of a oneof write one field).
import type { Db, SqlValue } from '../db/database';
import type { ApplyContext } from './apply';
import { sameValue } from './canonical';
import { mergeFields } from './merge';
import type { Snapshot, UndoWrite } from './resource';
import { snakeToCamel } from '../../src-shared/api/wire';

/** Column values of a row, as stored (epoch micros, enum numbers). */
export type Columns = Readonly<Record<string, SqlValue>>;

/** One synced field of a record kind whose wire form is W. */
export interface SyncedField<W> {
  /** Its canonical form: what the merge compares, the merge base keeps and the conflict log shows (times as micros). */
  of(record: W): unknown;
  /** Where it lands: columns of the kind's row, made from the wire record (the same columns for every record) ... */
  readonly columns?: (record: W) => Columns;
  /** ... or a child table, replaced through its store (returns whether rows changed, when the store says). */
  readonly rows?: (db: Db, pk: number, record: W) => boolean | void;
  /** The update_mask paths that write it, when they are not just its name (a oneof's members). */
  readonly paths?: readonly string[];
  /** The value its update request member takes for a canonical value (undefined: left out); default the value itself. */
  readonly wire?: (value: unknown) => unknown;
  /** The operations that set it (to true, to false) instead of the update, taking only the record's id (archive, unarchive). */
  readonly setBy?: readonly [string, string];
}

/** The public update a lost field is written back by (conflict undo): its operation and how its request names the record. */
export interface UpdateRequest {
  readonly operation: string;
  /** The request member holding the record ("testReport"). */
  readonly record: string;
  /** The record's member holding its id ("testReportId"). */
  readonly id: string;
}

/** A replicated record kind: its wire form W, its table, and its synced fields by name. */
export interface RecordShape<W, F extends string = string> {
  /** Its name in the sync tables (outbox targets, merge bases, conflicts). */
  readonly kind: string;
  /** Its table (id, pk, modified_date), read here only. */
  readonly table: string;
  /** Its stored records as the wire has them (the store's reader). */
  load(db: Db, pks: readonly number[]): W[];
  /** Writes columns of one of its rows (the table's store). */
  setColumns(db: Db, pk: number, values: Columns): void;
  readonly fields: Readonly<Record<F, SyncedField<W>>>;
  /** The columns the server sets (the same for every record): taken from the remote as they are, never merged. */
  readonly server?: (record: W) => Columns;
  /** Its update operation (absent: a lost field of this kind has no automatic undo). */
  readonly update?: UpdateRequest;
}

const namesOf = <F extends string>(shape: { readonly fields: Readonly<Record<F, unknown>> }) => Object.keys(shape.fields) as F[];

/** The synced fields of a wire record, canonical. */
export function syncedFields<W, F extends string>(shape: RecordShape<W, F>, record: W): Record<F, unknown> {
  const out = {} as Record<F, unknown>;
  for (const f of namesOf(shape)) out[f] = shape.fields[f].of(record);
  return out;
}

/** The synced fields whose canonical values differ between two records. */
export const differing = <W, F extends string>(shape: RecordShape<W, F>, a: Record<F, unknown>, b: Record<F, unknown>): F[] =>
  namesOf(shape).filter((f) => !sameValue(a[f], b[f]));

function fillRow<W, F extends string>(shape: RecordShape<W, F>, record: W, row: Record<string, SqlValue>): Record<string, SqlValue> {
  for (const f of namesOf(shape)) Object.assign(row, shape.fields[f].columns?.(record));
  return Object.assign(row, shape.server?.(record));
}

/**
 * Per kind, its row with every column null. A row is a copy of it filled in: one built up column by column falls into
 * V8's dictionary mode past a dozen properties, which made an initial pull's rows about three times as slow to build.
 */
const rowTemplates = new WeakMap<object, Record<string, SqlValue>>();

/** The columns of a wire record's row that its synced fields and the server set (parents, authors and dates aside). */
export function rowOf<W, F extends string>(shape: RecordShape<W, F>, record: W): Record<string, SqlValue> {
  let template = rowTemplates.get(shape);
  if (!template) {
    const columns = Object.keys(fillRow(shape, record, {}));
    template = { ...Object.fromEntries(columns.map((c) => [c, null])) };
    rowTemplates.set(shape, template);
  }
  return fillRow(shape, record, { ...template });
}

/** Writes every synced field kept in a child table (a record taken whole); returns whether any rows changed. */
export function writeChildRows<W, F extends string>(shape: RecordShape<W, F>, db: Db, pk: number, record: W): boolean {
  let changed = false;
  for (const f of namesOf(shape)) if (shape.fields[f].rows?.(db, pk, record)) changed = true;
  return changed;
}

/** Writes one synced field of a local record as the wire record has it (replication: no outbox entry). */
export function writeField<W, F extends string>(shape: RecordShape<W, F>, db: Db, pk: number, field: F, record: W): void {
  const f = shape.fields[field];
  if (f.columns) shape.setColumns(db, pk, f.columns(record));
  else f.rows?.(db, pk, record);
}

/** The synced field an update_mask path writes. */
export function fieldOfPath<W, F extends string>(shape: RecordShape<W, F>): (path: string) => string {
  const byPath = new Map<string, string>();
  for (const f of namesOf(shape)) for (const p of shape.fields[f].paths ?? [f]) byPath.set(p, f);
  return (path) => byPath.get(path) ?? path;
}

/** The local record's synced fields, canonical (undefined: no such row). */
export function localFields<W, F extends string>(shape: RecordShape<W, F>, db: Db, pk: number): Record<F, unknown> | undefined {
  const [record] = shape.load(db, [pk]);
  return record && syncedFields(shape, record);
}

/** The merge base of a record about to be edited: the local state, which equals the remote's while nothing is pending. */
export function snapshotOf<W, F extends string>(shape: RecordShape<W, F>): (db: Db, id: string) => Snapshot | undefined {
  return (db, id) => {
    const row = db.get<{ pk: number; modified_date: number }>(`SELECT pk, modified_date FROM ${shape.table} WHERE id = ?`, [id]);
    return row && { version: row.modified_date, fields: localFields(shape, db, row.pk)! };
  };
}

/**
 * Merges remote record `record` into local record `id` (row `pk`) field by field (merge.ts), writing the fields the
 * remote wins. Returns whether any was written.
 */
export function mergeRecord<W, F extends string>(
  ctx: ApplyContext,
  shape: RecordShape<W, F>,
  row: { pk: number; id: string },
  record: W,
  remoteTime: number,
): boolean {
  let written = false;
  mergeFields(ctx, {
    resource: shape.kind,
    recordId: row.id,
    local: localFields(shape, ctx.db, row.pk)!,
    remote: syncedFields(shape, record),
    remoteTime,
    write: (field) => {
      writeField(shape, ctx.db, row.pk, field as F, record);
      written = true;
    },
  });
  return written;
}

/**
 * The descriptor's `merge.undo`: the update that writes a lost field's canonical value back, its mask the field's paths
 * (or its name); undefined for a kind without an update operation or a field it does not declare.
 */
export function undoOf<W, F extends string>(
  shape: RecordShape<W, F>,
): (recordId: string, field: string, value: unknown) => UndoWrite | undefined {
  return (recordId, field, value) => {
    const { update } = shape;
    if (!update || !Object.hasOwn(shape.fields, field)) return undefined;
    const f = shape.fields[field as F];
    if (f.setBy) return { operation: f.setBy[value ? 0 : 1], request: { [update.id]: recordId } };
    const wire = f.wire ? f.wire(value) : value;
    const record = { [update.id]: recordId, ...(wire === undefined ? {} : { [snakeToCamel(field)]: wire }) };
    return { operation: update.operation, request: { [update.record]: record, updateMask: (f.paths ?? [field]).join(',') } };
  };
}
