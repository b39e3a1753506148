// Reference data a reviewer needs offline (to create annotations on assets,
// runs and channels, tag them and assign them to colleagues): users, tags,
// assets, runs, channels. Pulled with the remote's ids into the core tables;
// never edited locally through sync, so these are plain upserts, which leave a
// row that already holds the remote's values untouched. A local row with the
// same unique name but another id (made offline) is renamed away or, for tags
// (referenced by name), re-keyed to the remote id. Each apply returns how many
// records arrived or changed (a re-read of an unchanged record counts 0).
import type { Asset } from '../../../../src-shared/api/assets';
import type { Channel } from '../../../../src-shared/api/channels';
import { ChannelDataType } from '../../../../src-shared/api/channels';
import type { Run } from '../../../../src-shared/api/runs';
import type { Tag } from '../../../../src-shared/api/tags';
import { wireMicros } from '../../time';
import { replaceList, replaceMetadata } from '../../../db/childRows';
import type { Db } from '../../../db/database';
import { ensureOrganization, upsertMembership, upsertUser } from '../../identity';
import { perOrganization, timeOfField, type Puller } from '../../pull';
import type { SyncSession } from '../../session';

const micros = wireMicros;

function organizationOf(s: SyncSession, variant: Record<string, unknown>): string {
  return (variant.organizationId as string | undefined) ?? s.identity.organizations[0]?.id ?? '';
}

/**
 * The DO UPDATE part of a conditional upsert: `columns` take the incoming values only when one of them differs
 * (so an unchanged re-read writes nothing and reports no change).
 */
function updateIfChanged(table: string, columns: readonly string[]): string {
  return `DO UPDATE SET ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}
    WHERE ${columns.map((c) => `${table}.${c} IS NOT excluded.${c}`).join(' OR ')}`;
}

const TAG_UPDATE = updateIfChanged('tags', ['name', 'created_by_user_id', 'created_date']);
const ASSET_UPDATE = updateIfChanged('assets', ['name', 'modified_date', 'modified_by_user_id', 'archived_date']);
const RUN_UPDATE = updateIfChanged('runs', [
  'name', 'description', 'start_time', 'stop_time', 'is_pinned', 'client_key', 'default_report_id', 'is_adhoc', 'modified_date', 'modified_by_user_id', 'archived_date',
]);
const CHANNEL_UPDATE = updateIfChanged('channels', [
  'name', 'description', 'unit_id', 'data_type', 'display_description', 'display_unit_id', 'active', 'modified_date', 'modified_by_user_id',
]);

interface UserWire {
  userId: string;
  userName: string;
}

export const usersPuller: Puller<UserWire> = {
  resource: 'users',
  operation: 'ListActiveUsers',
  listField: 'users',
  mode: 'full',
  orderable: false,
  variants: perOrganization,
  apply(s, items, variant) {
    const org = organizationOf(s, variant);
    let changed = 0;
    for (const u of items) {
      const user = upsertUser(s.db, u.userId, u.userName);
      const member = org ? upsertMembership(s.db, u.userId, org) : false;
      if (user || member) changed++;
    }
    return changed;
  },
};

export const tagsPuller: Puller<Tag> = {
  resource: 'tags',
  operation: 'ListTags',
  listField: 'tags',
  mode: 'created',
  orderable: true,
  timeOf: timeOfField('createdDate'),
  idOf: (t) => t.tagId,
  variants: perOrganization,
  apply(s, items, variant) {
    const org = organizationOf(s, variant);
    ensureOrganization(s.db, org);
    let changed = 0;
    for (const t of items) {
      const rekeyed = s.db.run('UPDATE tags SET id = ? WHERE organization_id = ? AND name = ? AND id != ?', [t.tagId, org, t.name, t.tagId]).changes;
      const upserted = s.db.run(
        `INSERT INTO tags(id, organization_id, name, created_by_user_id, created_date) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(id) ${TAG_UPDATE}`,
        [t.tagId, org, t.name, t.createdByUserId, micros(t.createdDate)],
      ).changes;
      if (rekeyed || upserted) changed++;
    }
    return changed;
  },
};

/** Renames a local row that holds a unique name the remote row needs. */
function freeName(db: Db, table: string, scopeColumn: string, scope: string, name: string, id: string): void {
  const clash = db.get<{ id: string }>(`SELECT id FROM ${table} WHERE ${scopeColumn} = ? AND name = ? AND id != ?`, [scope, name, id]);
  if (clash) db.run(`UPDATE ${table} SET name = ? WHERE id = ?`, [`${name} (local ${clash.id.slice(0, 8)})`, clash.id]);
}

export const assetsPuller: Puller<Asset> = {
  resource: 'assets',
  operation: 'ListAssets',
  listField: 'assets',
  mode: 'modified',
  orderable: true,
  timeOf: timeOfField('modifiedDate'),
  idOf: (a) => a.assetId,
  variants: perOrganization,
  apply(s, items) {
    let changed = 0;
    for (const a of items) {
      ensureOrganization(s.db, a.organizationId);
      freeName(s.db, 'assets', 'organization_id', a.organizationId, a.name, a.assetId);
      const row = s.db.run(
        `INSERT INTO assets(id, organization_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id, archived_date)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) ${ASSET_UPDATE}`,
        [a.assetId, a.organizationId, a.name, micros(a.createdDate), a.createdByUserId, micros(a.modifiedDate), a.modifiedByUserId, micros(a.archivedDate)],
      ).changes;
      const pk = s.db.get<{ pk: number }>('SELECT pk FROM assets WHERE id = ?', [a.assetId])!.pk;
      const tags = replaceList(s.db, 'asset_tags', 'asset_pk', 'tag_name', pk, a.tags);
      const metadata = replaceMetadata(s.db, 'asset_metadata', 'asset_pk', pk, a.metadata as never);
      if (row || tags || metadata) changed++;
    }
    return changed;
  },
};

export const runsPuller: Puller<Run> = {
  resource: 'runs',
  operation: 'ListRuns',
  listField: 'runs',
  mode: 'modified',
  orderable: true,
  timeOf: timeOfField('modifiedDate'),
  idOf: (r) => r.runId,
  variants: perOrganization,
  apply(s, items) {
    let changed = 0;
    for (const r of items) {
      ensureOrganization(s.db, r.organizationId);
      if (r.clientKey) s.db.run('UPDATE runs SET client_key = NULL WHERE organization_id = ? AND client_key = ? AND id != ?', [r.organizationId, r.clientKey, r.runId]);
      const row = s.db.run(
        `INSERT INTO runs(id, organization_id, name, description, start_time, stop_time, is_pinned, client_key, default_report_id, is_adhoc,
           created_date, created_by_user_id, modified_date, modified_by_user_id, archived_date)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) ${RUN_UPDATE}`,
        [
          r.runId, r.organizationId, r.name, r.description, micros(r.startTime), micros(r.stopTime), r.isPinned ? 1 : 0, r.clientKey ?? null,
          r.defaultReportId, r.isAdhoc ? 1 : 0, micros(r.createdDate), r.createdByUserId, micros(r.modifiedDate), r.modifiedByUserId, micros(r.archivedDate),
        ],
      ).changes;
      const pk = s.db.get<{ pk: number }>('SELECT pk FROM runs WHERE id = ?', [r.runId])!.pk;
      const assets = replaceList(s.db, 'run_assets', 'run_pk', 'asset_id', pk, r.assetIds);
      const tags = replaceList(s.db, 'run_tags', 'run_pk', 'tag_name', pk, r.tags);
      const metadata = replaceMetadata(s.db, 'run_metadata', 'run_pk', pk, r.metadata as never);
      if (row || assets || tags || metadata) changed++;
    }
    return changed;
  },
};

export const channelsPuller: Puller<Channel> = {
  resource: 'channels',
  operation: 'ListChannels',
  listField: 'channels',
  mode: 'modified',
  orderable: true,
  maxPageSize: 10_000,
  timeOf: timeOfField('modifiedDate'),
  idOf: (c) => c.channelId,
  variants: perOrganization,
  apply(s, items, variant) {
    let changed = 0;
    for (const c of items) {
      const org = s.db.get<{ organization_id: string }>('SELECT organization_id FROM assets WHERE id = ?', [c.assetId])?.organization_id ?? organizationOf(s, variant);
      ensureOrganization(s.db, org);
      s.db.run('DELETE FROM channels WHERE asset_id = ? AND name = ? AND id != ?', [c.assetId, c.name, c.channelId]);
      const row = s.db.run(
        `INSERT INTO channels(id, organization_id, asset_id, name, description, unit_id, data_type, display_description, display_unit_id, active,
           created_date, created_by_user_id, modified_date, modified_by_user_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) ${CHANNEL_UPDATE}`,
        [
          c.channelId, org, c.assetId, c.name, c.description, c.unitId, ChannelDataType.numbers[c.dataType] ?? 1, c.displayDescription, c.displayUnitId,
          c.active ? 1 : 0, micros(c.createdDate), c.createdByUserId, micros(c.modifiedDate), c.modifiedByUserId,
        ],
      ).changes;
      if (row) changed++;
    }
    return changed;
  },
};

/** Reference data first: annotations refer to it. */
export const referencePullers: readonly Puller[] = [usersPuller, tagsPuller, assetsPuller, runsPuller, channelsPuller];
