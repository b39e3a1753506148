// Cedar entities for one decision: the calling user (its organizations and
// roles as parents, its principal attributes as tags) and the target record
// (the common record attributes, its resource attributes as tags), loaded in
// batches so a list page costs a few queries, not a few per row.
import type { EntityJson, EntityUid } from '@cedar-policy/cedar-wasm/nodejs';
import type { Caller } from '../caller';
import type { Db } from '../../db/database';
import type { ChildColumn, ChildRecords, RecordType } from './recordTypes';

export const organizationUid = (id: string): EntityUid => ({ type: 'Organization', id });
const userRef = (id: string) => ({ __entity: { type: 'User', id } });
const PKS = '(SELECT value FROM json_each(?))';

export function principalEntity(db: Db, caller: Caller, organizationId: string): EntityJson {
  const roles = db
    .all<{ role: string }>('SELECT role FROM principal_roles WHERE organization_id = ? AND user_id = ? ORDER BY role', [
      organizationId,
      caller.userId,
    ])
    .map((r) => r.role);
  const tags: Record<string, string> = {};
  for (const a of db.all<{ key: string; value: string }>(
    'SELECT key, value FROM principal_attributes WHERE organization_id = ? AND user_id = ?',
    [organizationId, caller.userId],
  )) {
    tags[a.key] = a.value;
  }
  return {
    uid: { type: 'User', id: caller.userId },
    attrs: { name: caller.userName, roles },
    parents: [...caller.organizations.map((o) => organizationUid(o.id)), ...roles.map((r) => ({ type: 'Role', id: r }))],
    tags,
  };
}

export interface RecordEntity {
  readonly pk: number;
  readonly id: string;
  readonly organizationId: string;
  readonly entity: EntityJson;
}

interface RecordRow {
  pk: number;
  id: string;
  organization_id: string;
  created_by_user_id: string;
  assignee: string | null;
}

function grouped(db: Db, column: ChildColumn | undefined, pks: readonly number[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  if (!column) return out;
  const [table, pkColumn, valueColumn] = column;
  for (const r of db.all<{ pk: number; v: string }>(
    `SELECT ${pkColumn} AS pk, ${valueColumn} AS v FROM ${table} WHERE ${pkColumn} IN ${PKS}`,
    [JSON.stringify(pks)],
  )) {
    const list = out.get(r.pk) ?? out.set(r.pk, []).get(r.pk)!;
    list.push(r.v);
  }
  return out;
}

/** The records (by pk) as Cedar entities, in the order of `pks` (missing ones skipped). */
export function recordEntities(db: Db, type: RecordType, pks: readonly number[]): RecordEntity[] {
  if (pks.length === 0) return [];
  const assignee = type.assigneeColumn ? `t.${type.assigneeColumn}` : 'NULL';
  const rows = db.all<RecordRow>(
    `SELECT t.pk, t.id, t.organization_id, t.created_by_user_id, ${assignee} AS assignee FROM ${type.table} t WHERE t.pk IN ${PKS}`,
    [JSON.stringify(pks)],
  );
  const tags = grouped(db, type.tags, pks);
  const assets = grouped(db, type.assets, pks);
  const assetIds = [...new Set([...assets.values()].flat())];
  const tagsOfAsset = new Map<string, string[]>();
  if (assetIds.length) {
    for (const r of db.all<{ id: string; tag_name: string }>(
      `SELECT a.id, at.tag_name FROM assets a JOIN asset_tags at ON at.asset_pk = a.pk WHERE a.id IN ${PKS}`,
      [JSON.stringify(assetIds)],
    )) {
      (tagsOfAsset.get(r.id) ?? tagsOfAsset.set(r.id, []).get(r.id)!).push(r.tag_name);
    }
  }
  const attributes = new Map<string, Record<string, string>>();
  for (const r of db.all<{ resource_id: string; key: string; value: string }>(
    `SELECT resource_id, key, value FROM resource_attributes WHERE resource_type = ? AND resource_id IN ${PKS}`,
    [type.entity, JSON.stringify(rows.map((r) => r.id))],
  )) {
    (attributes.get(r.resource_id) ?? attributes.set(r.resource_id, {}).get(r.resource_id)!)[r.key] = r.value;
  }
  const byPk = new Map(rows.map((r) => [r.pk, r]));
  const out: RecordEntity[] = [];
  for (const pk of pks) {
    const r = byPk.get(pk);
    if (!r) continue;
    const recordAssets = assets.get(pk) ?? [];
    const attrs: Record<string, unknown> = {
      organization: { __entity: organizationUid(r.organization_id) },
      creator: userRef(r.created_by_user_id),
      tags: tags.get(pk) ?? [],
      assets: recordAssets,
      assetTags: [...new Set(recordAssets.flatMap((a) => tagsOfAsset.get(a) ?? []))],
    };
    if (r.assignee) attrs.assignee = userRef(r.assignee);
    out.push({
      pk,
      id: r.id,
      organizationId: r.organization_id,
      entity: {
        uid: { type: type.entity, id: r.id },
        attrs: attrs as EntityJson['attrs'],
        parents: [organizationUid(r.organization_id)],
        tags: attributes.get(r.id) ?? {},
      },
    });
  }
  return out;
}

export interface NamedRecord {
  readonly pk: number;
  readonly id: string;
  readonly organizationId: string;
}

/**
 * The records whose `column` (`id`, a unique key such as `client_key`) is one of `values`, limited to the caller's
 * organizations (another organization's record stays NOT_FOUND).
 */
export function recordPks(
  db: Db,
  type: RecordType,
  values: readonly string[],
  organizationIds: readonly string[],
  column = 'id',
): NamedRecord[] {
  if (values.length === 0 || organizationIds.length === 0) return [];
  // Inside a batch (Db.joined) the records it read are kept by id: each item's decision names one of them again.
  const kept = column === 'id' ? keptRecords(db, type.table) : undefined;
  if (kept && values.every((id) => kept.has(id))) {
    return [...new Set(values)].map((id) => kept.get(id)!).filter((r) => organizationIds.includes(r.organizationId));
  }
  const records = db.all<NamedRecord>(
    `SELECT pk, id, organization_id AS organizationId FROM ${type.table} WHERE ${column} IN ${PKS} AND organization_id IN ${PKS}`,
    [JSON.stringify(values), JSON.stringify(organizationIds)],
  );
  if (kept) for (const r of records) kept.set(r.id, r);
  return records;
}

const KEPT_RECORDS = {};

/** The records of `table` a batch has read, by id (Db.joinedValue; a record's pk, id and organization stay while it exists). */
function keptRecords(db: Db, table: string): Map<string, NamedRecord> | undefined {
  const byTable = db.joinedValue(KEPT_RECORDS, () => new Map<string, Map<string, NamedRecord>>());
  if (!byTable) return undefined;
  let kept = byTable.get(table);
  if (!kept) byTable.set(table, (kept = new Map()));
  return kept;
}

/** Records of `table` a batch has read itself (its plan): its items' decisions then name them without a query. */
export function keepNamedRecords(db: Db, table: string, records: Iterable<NamedRecord>): void {
  const kept = keptRecords(db, table);
  if (kept) for (const r of records) kept.set(r.id, r);
}

/** The parents (of `type`) of the child records with these ids, limited to the caller's organizations. */
export function parentRecords(
  db: Db,
  type: RecordType,
  child: ChildRecords,
  ids: readonly string[],
  organizationIds: readonly string[],
): NamedRecord[] {
  if (ids.length === 0 || organizationIds.length === 0) return [];
  return db.all<NamedRecord>(
    `SELECT DISTINCT p.pk, p.id, p.organization_id AS organizationId FROM ${child.table} c JOIN ${type.table} p ON p.pk = c.${child.parentColumn}
     WHERE c.id IN ${PKS} AND p.organization_id IN ${PKS}`,
    [JSON.stringify(ids), JSON.stringify(organizationIds)],
  );
}
