// Reference data a reviewer needs offline (to create annotations on assets,
// runs and channels, tag them and assign them to colleagues): users, tags,
// assets, runs, channels. Pulled with the remote's ids into the core tables;
// never edited locally through sync, so these are plain upserts. A local row
// with the same unique name but another id (made offline) is renamed away or,
// for tags (referenced by name), re-keyed to the remote id.
import type { Asset } from '../../../src-shared/api/assets';
import type { Channel } from '../../../src-shared/api/channels';
import { ChannelDataType } from '../../../src-shared/api/channels';
import type { Run } from '../../../src-shared/api/runs';
import type { Tag } from '../../../src-shared/api/tags';
import { wireMicros } from '../time';
import { replaceList, replaceMetadata } from '../../db/childRows';
import type { Db } from '../../db/database';
import { upsertMembership, upsertUser } from '../identity';
import { perOrganization, timeOfField, type Puller } from '../pull';
import type { SyncSession } from '../session';

const micros = wireMicros;

function organizationOf(s: SyncSession, variant: Record<string, unknown>): string {
  return (variant.organizationId as string | undefined) ?? s.identity.organizations[0]?.id ?? '';
}

function ensureOrganization(db: Db, id: string): void {
  db.run('INSERT OR IGNORE INTO organizations(id, name, created_date) VALUES (?, ?, ?)', [id, `organization ${id}`, Date.now() * 1000]);
}

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
    for (const u of items) {
      upsertUser(s.db, u.userId, u.userName);
      if (org) upsertMembership(s.db, u.userId, org);
    }
    return items.length;
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
    for (const t of items) {
      s.db.run('UPDATE tags SET id = ? WHERE organization_id = ? AND name = ? AND id != ?', [t.tagId, org, t.name, t.tagId]);
      s.db.run(
        `INSERT INTO tags(id, organization_id, name, created_by_user_id, created_date) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, created_by_user_id = excluded.created_by_user_id, created_date = excluded.created_date`,
        [t.tagId, org, t.name, t.createdByUserId, micros(t.createdDate)],
      );
    }
    return items.length;
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
    for (const a of items) {
      ensureOrganization(s.db, a.organizationId);
      freeName(s.db, 'assets', 'organization_id', a.organizationId, a.name, a.assetId);
      s.db.run(
        `INSERT INTO assets(id, organization_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id, archived_date)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, modified_date = excluded.modified_date,
           modified_by_user_id = excluded.modified_by_user_id, archived_date = excluded.archived_date`,
        [a.assetId, a.organizationId, a.name, micros(a.createdDate), a.createdByUserId, micros(a.modifiedDate), a.modifiedByUserId, micros(a.archivedDate)],
      );
      const pk = s.db.get<{ pk: number }>('SELECT pk FROM assets WHERE id = ?', [a.assetId])!.pk;
      replaceList(s.db, 'asset_tags', 'asset_pk', 'tag_name', pk, a.tags);
      replaceMetadata(s.db, 'asset_metadata', 'asset_pk', pk, a.metadata as never);
    }
    return items.length;
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
    for (const r of items) {
      ensureOrganization(s.db, r.organizationId);
      if (r.clientKey) s.db.run('UPDATE runs SET client_key = NULL WHERE organization_id = ? AND client_key = ? AND id != ?', [r.organizationId, r.clientKey, r.runId]);
      s.db.run(
        `INSERT INTO runs(id, organization_id, name, description, start_time, stop_time, is_pinned, client_key, default_report_id, is_adhoc,
           created_date, created_by_user_id, modified_date, modified_by_user_id, archived_date)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description, start_time = excluded.start_time,
           stop_time = excluded.stop_time, is_pinned = excluded.is_pinned, client_key = excluded.client_key,
           default_report_id = excluded.default_report_id, is_adhoc = excluded.is_adhoc, modified_date = excluded.modified_date,
           modified_by_user_id = excluded.modified_by_user_id, archived_date = excluded.archived_date`,
        [
          r.runId, r.organizationId, r.name, r.description, micros(r.startTime), micros(r.stopTime), r.isPinned ? 1 : 0, r.clientKey ?? null,
          r.defaultReportId, r.isAdhoc ? 1 : 0, micros(r.createdDate), r.createdByUserId, micros(r.modifiedDate), r.modifiedByUserId, micros(r.archivedDate),
        ],
      );
      const pk = s.db.get<{ pk: number }>('SELECT pk FROM runs WHERE id = ?', [r.runId])!.pk;
      replaceList(s.db, 'run_assets', 'run_pk', 'asset_id', pk, r.assetIds);
      replaceList(s.db, 'run_tags', 'run_pk', 'tag_name', pk, r.tags);
      replaceMetadata(s.db, 'run_metadata', 'run_pk', pk, r.metadata as never);
    }
    return items.length;
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
    for (const c of items) {
      const org = s.db.get<{ organization_id: string }>('SELECT organization_id FROM assets WHERE id = ?', [c.assetId])?.organization_id ?? organizationOf(s, variant);
      ensureOrganization(s.db, org);
      s.db.run('DELETE FROM channels WHERE asset_id = ? AND name = ? AND id != ?', [c.assetId, c.name, c.channelId]);
      s.db.run(
        `INSERT INTO channels(id, organization_id, asset_id, name, description, unit_id, data_type, display_description, display_unit_id, active,
           created_date, created_by_user_id, modified_date, modified_by_user_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description, unit_id = excluded.unit_id,
           data_type = excluded.data_type, display_description = excluded.display_description, display_unit_id = excluded.display_unit_id,
           active = excluded.active, modified_date = excluded.modified_date, modified_by_user_id = excluded.modified_by_user_id`,
        [
          c.channelId, org, c.assetId, c.name, c.description, c.unitId, ChannelDataType.numbers[c.dataType] ?? 1, c.displayDescription, c.displayUnitId,
          c.active ? 1 : 0, micros(c.createdDate), c.createdByUserId, micros(c.modifiedDate), c.modifiedByUserId,
        ],
      );
    }
    return items.length;
  },
};

/** Reference data first: annotations refer to it. */
export const referencePullers: readonly Puller[] = [usersPuller, tagsPuller, assetsPuller, runsPuller, channelsPuller];
