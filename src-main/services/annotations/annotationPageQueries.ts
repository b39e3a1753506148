// The statements that load a page of annotations (a list page, a batch
// result): rows and child rows of many pks at once. They run in raw mode
// (arrays, not objects) and the rows are rebuilt as plain object literals
// here: better-sqlite3 builds a named-property object per row through the V8
// API, which cost more than the query itself for the 24-column annotations
// rows (ListAnnotations, bench/sync.ts: ~8.5 of the remote's ~44 us per
// listed annotation, half of that with arrays).
import type { Statement } from 'better-sqlite3';
import type { Db } from '../../db/database';
import type { AnnotationRow } from './annotationRows';

const PKS = '(SELECT value FROM json_each(?))';

const ROW_COLUMNS = [
  'pk', 'id', 'organization_id', 'name', 'description', 'start_time', 'end_time', 'created_by_user_id', 'modified_by_user_id', 'created_date',
  'modified_date', 'run_id', 'state', 'assigned_to_user_id', 'annotation_type', 'legend_config', 'created_by_condition_id',
  'created_by_rule_condition_version_id', 'report_rule_version_id', 'pending', 'deleted_date', 'archived_date', 'batched_triggers', 'is_noisy_rule',
] as const;

interface PageStatements {
  rows: Statement;
  tags: Statement;
  assets: Statement;
  metadata: Statement;
  channels: Statement;
}

const statements = new WeakMap<Db, PageStatements>();

function statementsOf(db: Db): PageStatements {
  let s = statements.get(db);
  if (!s) {
    const raw = (sql: string) => db.raw.prepare(sql).raw(true);
    s = {
      rows: raw(`SELECT ${ROW_COLUMNS.join(', ')} FROM annotations WHERE pk IN ${PKS}`),
      tags: raw(`SELECT annotation_pk, tag_name FROM annotation_tags WHERE annotation_pk IN ${PKS} ORDER BY annotation_pk, position`),
      assets: raw(`SELECT annotation_pk, asset_id FROM annotation_assets WHERE annotation_pk IN ${PKS} ORDER BY annotation_pk, position`),
      metadata: raw(
        `SELECT annotation_pk, key, type, string_value, number_value, boolean_value FROM annotation_metadata WHERE annotation_pk IN ${PKS} ORDER BY annotation_pk, position`,
      ),
      channels: raw(
        `SELECT annotation_pk, kind, channel_id, bit_field_name, calculated_channel_version_id FROM annotation_linked_channels WHERE annotation_pk IN ${PKS} ORDER BY annotation_pk, position`,
      ),
    };
    statements.set(db, s);
  }
  return s;
}

type Raw = any[];

/** Annotation rows by pk, in the order of `pks` (missing pks skipped). */
export function rowsByPks(db: Db, pks: readonly number[]): AnnotationRow[] {
  const byPk = new Map<number, AnnotationRow>();
  for (const r of statementsOf(db).rows.all(JSON.stringify(pks)) as Raw[]) {
    byPk.set(r[0], {
      pk: r[0], id: r[1], organization_id: r[2], name: r[3], description: r[4], start_time: r[5], end_time: r[6], created_by_user_id: r[7],
      modified_by_user_id: r[8], created_date: r[9], modified_date: r[10], run_id: r[11], state: r[12], assigned_to_user_id: r[13],
      annotation_type: r[14], legend_config: r[15], created_by_condition_id: r[16], created_by_rule_condition_version_id: r[17],
      report_rule_version_id: r[18], pending: r[19], deleted_date: r[20], archived_date: r[21], batched_triggers: r[22], is_noisy_rule: r[23],
    });
  }
  const out: AnnotationRow[] = [];
  for (const pk of pks) {
    const row = byPk.get(pk);
    if (row) out.push(row);
  }
  return out;
}

/**
 * Child rows of the pks as values (`fn` of each raw row, whose first column is the annotation pk), grouped by
 * annotation pk in position order. Rows come sorted by pk, so each pk's rows are one run: no map lookup per row.
 */
export function childValues<T>(db: Db, which: 'tags' | 'assets' | 'metadata' | 'channels', pks: readonly number[], fn: (r: Raw) => T): Map<number, T[]> {
  const out = new Map<number, T[]>();
  let current = NaN;
  let list: T[] = [];
  for (const r of statementsOf(db)[which].all(JSON.stringify(pks)) as Raw[]) {
    if (r[0] !== current) {
      current = r[0];
      out.set(current, (list = []));
    }
    list.push(fn(r));
  }
  return out;
}
