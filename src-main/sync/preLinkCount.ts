// How many records of a table were made before the first link (preLink in a
// resource's descriptor; sync/operations/preLink.ts): those held in the local
// organizations that no outbox entry created (a create queued since the link
// is already on its way).
import type { Db } from '../db/database';
import type { Adoption, PreLinkRecords } from './resource';

/** The rows of `table` held in the organizations of the query's parameter that no outbox entry created. */
const localRows = (table: string) =>
  `FROM ${table} WHERE organization_id IN (SELECT value FROM json_each(?)) AND id NOT IN (SELECT local_id FROM sync_id_map)`;

/** `except`: an SQL condition on the table's rows that are no one's work (e.g. the default policy each organization starts with). */
function countLocalRecords(db: Db, table: string, organizationIds: readonly string[], except?: string): number {
  const sql = `SELECT count(*) AS n ${localRows(table)}${except ? ` AND NOT (${except})` : ''}`;
  return db.get<{ n: number }>(sql, [JSON.stringify(organizationIds)])!.n;
}

/** Those records' ids, oldest first (the order they were made in, which adoption keeps). */
const localRecordIds = (db: Db, table: string, organizationIds: readonly string[]): string[] =>
  db.all<{ id: string }>(`SELECT id ${localRows(table)} ORDER BY created_date, pk`, [JSON.stringify(organizationIds)]).map((r) => r.id);

/** Records of a kind adoption sends, one at a time, oldest first (`adoptOne`: whether that one went). */
export function adoptedPreLink(
  resource: string,
  label: string,
  table: string,
  adoptOne: (a: Adoption, id: string) => boolean,
): PreLinkRecords {
  return {
    resource,
    label,
    count: (db, organizationIds) => countLocalRecords(db, table, organizationIds),
    adoption: {
      adopt(a) {
        let adopted = 0;
        for (const id of localRecordIds(a.ctx.db, table, a.localOrganizationIds)) if (adoptOne(a, id)) adopted++;
        return adopted;
      },
    },
  };
}

/** Records of a kind adoption does not send: counted (never hidden), with why they stay. */
export function keptPreLink(resource: string, label: string, table: string, kept: string, except?: string): PreLinkRecords {
  return {
    resource,
    label,
    adoption: { kept },
    count: (db: Db, organizationIds: readonly string[]) => countLocalRecords(db, table, organizationIds, except),
  };
}
