// Channels (reference §11.5, v3): get and list, plus the Outpost CreateChannel
// extension. A channel belongs to an asset (and that asset's organization);
// its name is unique per asset. Enum types, bit-field elements and metadata
// are not stored locally and are always empty.
import { randomUUID } from 'node:crypto';
import { ChannelDataType, type Channel, type ChannelDataTypeName, type CreateChannelInput } from '../../../src-shared/api/channels';
import { formatTimestamp, nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { visibleTo } from '../../auth/caller';
import { loadByPks } from '../../db/childRows';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { channelListSpec } from './listSpecs';
import { organizationScope } from './scope';
import { insertChannel } from './referenceStores';

interface ChannelRow {
  pk: number;
  id: string;
  organization_id: string;
  asset_id: string;
  name: string;
  description: string;
  unit_id: string;
  data_type: number;
  display_description: string;
  display_unit_id: string;
  active: number;
  created_date: number;
  created_by_user_id: string;
  modified_date: number;
  modified_by_user_id: string;
}

const dataTypeByNumber = new Map<number, ChannelDataTypeName>(ChannelDataType.names.map((n) => [ChannelDataType.numbers[n], n]));

export function loadChannels(db: Db, pks: readonly number[]): Channel[] {
  return loadByPks<ChannelRow>(db, 'channels', pks).map((r) => ({
    channelId: r.id,
    name: r.name,
    assetId: r.asset_id,
    description: r.description,
    unitId: r.unit_id,
    createdDate: formatTimestamp(r.created_date),
    modifiedDate: formatTimestamp(r.modified_date),
    createdByUserId: r.created_by_user_id,
    modifiedByUserId: r.modified_by_user_id,
    dataType: dataTypeByNumber.get(r.data_type) ?? 'CHANNEL_DATA_TYPE_UNSPECIFIED',
    enumTypes: [],
    bitFieldElements: [],
    displayDescription: r.display_description,
    displayUnitId: r.display_unit_id,
    metadata: [],
    active: r.active === 1,
  }));
}

export function getChannel(ctx: RequestContext, channelId: string): { channel: Channel } {
  const scope = visibleTo(ctx.caller, 'organization_id');
  const row = ctx.db.get<{ pk: number }>(`SELECT pk FROM channels WHERE id = ? AND ${scope.sql}`, [channelId, ...scope.params]);
  if (!row) throw ApiError.notFound('channel', channelId);
  return { channel: loadChannels(ctx.db, [row.pk])[0] };
}

export function createChannel(ctx: RequestContext, req: CreateChannelInput): { channel: Channel } {
  const { db, caller } = ctx;
  // The platform's channels always have a concrete type; unset means DOUBLE (the common case, and the column default).
  const dataType = !req.dataType || req.dataType === 'CHANNEL_DATA_TYPE_UNSPECIFIED' ? 'CHANNEL_DATA_TYPE_DOUBLE' : req.dataType;
  return db.tx(() => {
    const scope = visibleTo(caller, 'organization_id');
    const asset = db.get<{ id: string; organization_id: string }>(`SELECT id, organization_id FROM assets WHERE id = ? AND ${scope.sql}`, [
      req.assetId,
      ...scope.params,
    ]);
    if (!asset) throw ApiError.invalid('asset_id', `unknown asset '${req.assetId}'`);
    if (db.get('SELECT 1 FROM channels WHERE asset_id = ? AND name = ?', [asset.id, req.name])) {
      throw ApiError.alreadyExists('channel', req.name, `the asset already has a channel named '${req.name}'`);
    }
    const now = nowMicros();
    const pk = insertChannel(db, {
      id: randomUUID(),
      organization_id: asset.organization_id,
      asset_id: asset.id,
      name: req.name,
      description: req.description ?? '',
      unit_id: req.unitId ?? '',
      data_type: ChannelDataType.numbers[dataType],
      display_description: req.displayDescription ?? '',
      display_unit_id: req.displayUnitId ?? '',
      created_date: now,
      created_by_user_id: caller.userId,
      modified_date: now,
      modified_by_user_id: caller.userId,
    })!;
    return { channel: loadChannels(db, [pk])[0] };
  });
}

export function listChannels(ctx: RequestContext, req: ListParams & { organizationId?: string }) {
  const scope = organizationScope(ctx.caller, req.organizationId);
  const page = listPage(ctx.db, channelListSpec, req, { ...scope, gate: ctx.rowGate }, ctx.engine.pageTokenSecret);
  return { channels: loadChannels(ctx.db, page.keys), nextPageToken: page.nextPageToken };
}
