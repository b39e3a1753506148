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
import { ensureOrganization, upsertMembership, upsertUser } from '../../identity';
import { keepUnlisted, perOrganization, type Puller } from '../../pull';
import type { SyncSession } from '../../session';
import {
  replaceAssetMetadata,
  replaceAssetTags,
  replaceRunAssets,
  replaceRunMetadata,
  replaceRunTags,
  upsertRemoteAsset,
  upsertRemoteChannel,
  upsertRemoteRun,
  upsertRemoteTag,
} from '../../../services/reference/referenceStores';

const micros = wireMicros;

// Record kinds, as id_collision conflicts name them. Ids made here (offline, before the link) are random UUIDs like
// the remote's, so a pulled record can meet one only where two stores share ids (a copied data directory, a seed):
// then it is another record, not an update of ours (collisions.ts); names do not key records (a same-named one
// made here gives way by name, below).
export const TAG = 'tag';
export const ASSET = 'asset';
export const RUN = 'run';
export const CHANNEL = 'channel';

function organizationOf(s: SyncSession, variant: Record<string, unknown>): string {
  return (variant.organizationId as string | undefined) ?? s.identity.organizations[0]?.id ?? '';
}

/**
 * A reference list, read per organization and never again in a run: `upsert` writes one item (its organization:
 * the variant's) and says whether anything arrived or changed.
 */
function referencePuller<T>(
  p: Pick<Puller<T>, 'resource' | 'collisions' | 'operation' | 'listField' | 'listing' | 'idOf'> &
    Partial<Pick<Puller<T>, 'variants'>> & { upsert(s: SyncSession, item: T, organizationId: string): boolean },
): Puller<T> {
  const { upsert, ...list } = p;
  return {
    readAgain: 'never',
    variants: perOrganization,
    ...list,
    apply: (s, items, variant) => items.filter((item) => upsert(s, item, organizationOf(s, variant))).length,
  };
}

interface UserWire {
  userId: string;
  userName: string;
}

export const usersPuller = referencePuller<UserWire>({
  resource: 'users',
  // (A user row holds no organization: users declare no collisions. The profile's own user has a random id.)
  collisions: null,
  operation: 'ListActiveUsers',
  listField: 'users',
  listing: { by: 'whole', settle: keepUnlisted },
  idOf: (u) => u.userId,
  upsert(s, u, org) {
    const user = upsertUser(s.db, u.userId, u.userName);
    const member = org ? upsertMembership(s.db, u.userId, org) : false;
    return user || member;
  },
});

export const tagsPuller = referencePuller<Tag>({
  resource: 'tags',
  collisions: { table: 'tags', kind: TAG },
  operation: 'ListTags',
  listField: 'tags',
  listing: { by: 'created_date', orderable: true },
  idOf: (t) => t.tagId,
  upsert(s, t, org) {
    ensureOrganization(s.db, org);
    return upsertRemoteTag(s.db, {
      id: t.tagId,
      organization_id: org,
      name: t.name,
      created_by_user_id: t.createdByUserId,
      created_date: micros(t.createdDate),
    });
  },
});

export const assetsPuller = referencePuller<Asset>({
  resource: 'assets',
  collisions: { table: 'assets', kind: ASSET },
  operation: 'ListAssets',
  listField: 'assets',
  listing: { by: 'modified_date', orderable: true },
  idOf: (a) => a.assetId,
  upsert(s, a) {
    ensureOrganization(s.db, a.organizationId);
    const { pk, changed: row } = upsertRemoteAsset(s.db, {
      id: a.assetId,
      organization_id: a.organizationId,
      name: a.name,
      created_date: micros(a.createdDate),
      created_by_user_id: a.createdByUserId,
      modified_date: micros(a.modifiedDate),
      modified_by_user_id: a.modifiedByUserId,
      archived_date: micros(a.archivedDate),
    });
    const tags = replaceAssetTags(s.db, pk, a.tags);
    const metadata = replaceAssetMetadata(s.db, pk, a.metadata as never);
    return row || tags || metadata;
  },
});

export const runsPuller = referencePuller<Run>({
  resource: 'runs',
  collisions: { table: 'runs', kind: RUN },
  operation: 'ListRuns',
  listField: 'runs',
  listing: { by: 'modified_date', orderable: true },
  idOf: (r) => r.runId,
  upsert(s, r) {
    ensureOrganization(s.db, r.organizationId);
    const { pk, changed: row } = upsertRemoteRun(s.db, {
      id: r.runId,
      organization_id: r.organizationId,
      name: r.name,
      description: r.description,
      start_time: micros(r.startTime),
      stop_time: micros(r.stopTime),
      is_pinned: r.isPinned ? 1 : 0,
      client_key: r.clientKey ?? null,
      default_report_id: r.defaultReportId,
      is_adhoc: r.isAdhoc ? 1 : 0,
      created_date: micros(r.createdDate),
      created_by_user_id: r.createdByUserId,
      modified_date: micros(r.modifiedDate),
      modified_by_user_id: r.modifiedByUserId,
      archived_date: micros(r.archivedDate),
    });
    const assets = replaceRunAssets(s.db, pk, r.assetIds);
    const tags = replaceRunTags(s.db, pk, r.tags);
    const metadata = replaceRunMetadata(s.db, pk, r.metadata as never);
    return row || assets || tags || metadata;
  },
});

export const channelsPuller = referencePuller<Channel>({
  resource: 'channels',
  // A channel of an asset made here under the remote's id belongs to the remote's asset, not to ours.
  collisions: { table: 'channels', kind: CHANNEL, parent: { table: 'assets', idOf: (c) => c.assetId } },
  operation: 'ListChannels',
  listField: 'channels',
  listing: { by: 'modified_date', orderable: true },
  idOf: (c) => c.channelId,
  variants: (s) => perOrganization(s).map((v) => ({ ...v, pageSize: 10_000 })),
  upsert(s, c, variantOrg) {
    const org =
      s.db.get<{ organization_id: string }>('SELECT organization_id FROM assets WHERE id = ?', [c.assetId])?.organization_id ?? variantOrg;
    ensureOrganization(s.db, org);
    return upsertRemoteChannel(s.db, {
      id: c.channelId,
      organization_id: org,
      asset_id: c.assetId,
      name: c.name,
      description: c.description,
      unit_id: c.unitId,
      data_type: ChannelDataType.numbers[c.dataType] ?? 1,
      display_description: c.displayDescription,
      display_unit_id: c.displayUnitId,
      active: c.active ? 1 : 0,
      created_date: micros(c.createdDate),
      created_by_user_id: c.createdByUserId,
      modified_date: micros(c.modifiedDate),
      modified_by_user_id: c.modifiedByUserId,
    });
  },
});

/** Reference data first: annotations refer to it. */
export const referencePullers: readonly Puller[] = [usersPuller, tagsPuller, assetsPuller, runsPuller, channelsPuller];
