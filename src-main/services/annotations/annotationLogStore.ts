// The `annotation_logs` rows are written here and nowhere else: by the API's
// services (a comment, or the history a write appends), by sync (remote logs,
// one or a page at a time with prepared multi-row statements; adopting the
// remote's copy of a log of ours) and by bulk loads (the demo seed). Values
// are as stored (epoch micros, enum numbers); reading them back as the API's
// AnnotationLog is annotationLogsService.ts.
import type { Statement } from 'better-sqlite3';
import type { Db, SqlValue } from '../../db/database';
import { recordTable } from '../../db/recordTable';

const COLUMN_NAMES = [
  'id',
  'annotation_pk',
  'annotation_id',
  'organization_id',
  'kind',
  'created_by_user_id',
  'created_by_user_name',
  'created_date',
  'modified_date',
  'assigned_to_user_id',
  'assigned_to_user_email',
  'state',
  'comment_body',
] as const;
type LogColumn = (typeof COLUMN_NAMES)[number];

/** A whole log row as stored (its pk aside). */
export type AnnotationLogRowValues = Readonly<Record<LogColumn, SqlValue>>;

const COLUMNS = COLUMN_NAMES.join(', ');
const ROW = `(${COLUMN_NAMES.map(() => '?').join(', ')})`;
/** The rows' values, one after another: an indexed loop (flatMap over 245k rows cost 0.8 s of an initial pull). */
function valuesOfRows(rows: readonly AnnotationLogRowValues[]): SqlValue[] {
  const out: SqlValue[] = [];
  for (const row of rows) for (let c = 0; c < COLUMN_NAMES.length; c++) out.push(row[COLUMN_NAMES[c]]);
  return out;
}

const valuesOf = (row: AnnotationLogRowValues): SqlValue[] => valuesOfRows([row]);

/** Inserts one log; returns its pk. */
export function insertAnnotationLog(db: Db, row: AnnotationLogRowValues): number {
  return Number(db.run(`INSERT INTO annotation_logs(${COLUMNS}) VALUES ${ROW}`, valuesOf(row)).lastInsertRowid);
}

export function deleteAnnotationLogByPk(db: Db, pk: number): void {
  db.run('DELETE FROM annotation_logs WHERE pk = ?', [pk]);
}

export function deleteAnnotationLogById(db: Db, id: string): void {
  db.run('DELETE FROM annotation_logs WHERE id = ?', [id]);
}

/** A log of ours takes the remote's dates, author name and (when it has one) assignee email. */
export function setAnnotationLogRemoteDetails(
  db: Db,
  id: string,
  details: { createdDate: number | null; modifiedDate: number | null; createdByUserName: string; assignedToUserEmail: string | null },
): void {
  db.run(
    'UPDATE annotation_logs SET created_date = ?, modified_date = ?, created_by_user_name = ?, assigned_to_user_email = COALESCE(?, assigned_to_user_email) WHERE id = ?',
    [details.createdDate, details.modifiedDate, details.createdByUserName, details.assignedToUserEmail, id],
  );
}

/** An offline-created log takes the id the remote gave it. */
export const annotationLogRows = recordTable('annotation_logs');

/** The logs of an offline-created annotation follow it to the id the remote gave it. */
export function moveAnnotationLogs(db: Db, fromAnnotationId: string, toAnnotationId: string): void {
  db.run('UPDATE annotation_logs SET annotation_id = ? WHERE annotation_id = ?', [toAnnotationId, fromAnnotationId]);
}

/** Rows per multi-row INSERT (13 columns each: well under SQLite's bound-parameter limit). */
const MULTI_ROWS = 100;

/** Prepared statements for writing logs one or a page at a time (sync's apply, bulk loads). */
export class AnnotationLogRowWriter {
  private readonly insertRow: Statement;
  private readonly multiRow = new Map<string, Statement>();

  constructor(private readonly db: Db) {
    this.insertRow = db.raw.prepare(`INSERT INTO annotation_logs(${COLUMNS}) VALUES ${ROW}`);
  }

  /** Inserts one log; returns its pk. */
  insert(row: AnnotationLogRowValues): number {
    return Number(this.insertRow.run(valuesOf(row)).lastInsertRowid);
  }

  /** A cached multi-row INSERT of `rows` logs; `bulk`: no conflict clause (the id index is deferred) and the new pks returned. */
  private multi(rows: number, bulk: boolean): Statement {
    const key = `${rows}:${bulk}`;
    let st = this.multiRow.get(key);
    if (!st) {
      // ON CONFLICT(id), not OR IGNORE: a malformed row (a NOT NULL column) must still fail the page, not vanish.
      st = this.db.raw.prepare(
        `INSERT INTO annotation_logs(${COLUMNS}) VALUES ${Array.from({ length: rows }, () => ROW).join(', ')} ${bulk ? 'RETURNING pk, id' : 'ON CONFLICT(id) DO NOTHING'}`,
      );
      if (bulk) st.raw(true);
      this.multiRow.set(key, st);
    }
    return st;
  }

  /**
   * Inserts logs with multi-row statements. Without `pkOf`, logs already held (same id) are left alone and the
   * count of new ones is returned; with it (a bulk load, whose id index is deferred and whose caller knows the ids
   * are new), every row is inserted and `pkOf` learns each new pk by id.
   */
  insertMany(rows: readonly AnnotationLogRowValues[], pkOf?: Map<string, number>): number {
    let inserted = 0;
    for (let i = 0; i < rows.length; i += MULTI_ROWS) {
      const chunk = rows.slice(i, i + MULTI_ROWS);
      // One array argument: spreading 1300 values into the call costs more than binding them.
      const values = valuesOfRows(chunk);
      const st = this.multi(chunk.length, pkOf !== undefined);
      if (!pkOf) {
        inserted += st.run(values).changes;
        continue;
      }
      for (const [pk, id] of st.all(values) as [number, string][]) pkOf.set(id, pk);
      inserted += chunk.length;
    }
    return inserted;
  }
}
