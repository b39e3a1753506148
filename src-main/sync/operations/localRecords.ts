// The local table of each kind of record the sync tables name (RecordKind in
// the resources' descriptors), for what the sync view does with a record it
// knows only by id: call it by its name here, so a conflict or a refused edit
// reads "annotation Pump 3 overheat" rather than a bare id; tell whether it is
// still held here; and delete it (a refused create given up: refusedCreates.ts).
import type { Db } from '../../db/database';
import type { RecordKind } from '../resource';
import type { HeldRecords } from '../spec';
import type { ResourceCatalog } from '../catalog';

/** The record's name here (its table's `name`, else `file_name`); '' when it is not held here (deleted, never pulled) or has none. */
export function recordName(catalog: ResourceCatalog, db: Db, resource: string, id: string): string {
  const table = catalog.kind(resource)?.rows.table;
  const columns = table ? db.all<{ name: string }>('SELECT name FROM pragma_table_info(?)', [table]).map((c) => c.name) : [];
  const column = ['name', 'file_name'].find((c) => columns.includes(c));
  return (column && db.get<{ name: string | null }>(`SELECT ${column} AS name FROM ${table} WHERE id = ?`, [id])?.name) || '';
}

/** Deletes the records `refs` names that are held here, through their stores; their child rows go with them (ON DELETE CASCADE). */
export function deleteHeld(catalog: ResourceCatalog, db: Db, refs: readonly { resource: string; id: string }[]): void {
  const byKind = new Map<RecordKind, string[]>();
  for (const r of refs) {
    const kind = catalog.kind(r.resource);
    if (kind) byKind.set(kind, [...(byKind.get(kind) ?? []), r.id]);
  }
  for (const [kind, ids] of byKind) kind.rows.deleteByIds(db, ids);
}

/** Whether record `id` of `resource` is held here (a kind no descriptor keeps is not). */
export function heldHere(catalog: ResourceCatalog, db: Db, resource: string, id: string): boolean {
  const t = catalog.kind(resource);
  return t !== undefined && db.get(`SELECT 1 FROM ${t.rows.table} WHERE id = ?`, [id]) !== undefined;
}

/** The same, as the descriptors' discard functions receive it. */
export const heldRecords = (catalog: ResourceCatalog, db: Db): HeldRecords => ({
  heldHere: (resource, id) => heldHere(catalog, db, resource, id),
  deleteHeld: (refs) => deleteHeld(catalog, db, refs),
});
