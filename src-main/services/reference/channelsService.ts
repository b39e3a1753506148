// Channels (reference §11.5, v3): get, list, update by mask, batch archive and
// unarchive (`active`), plus the Outpost CreateChannel extension. A channel
// belongs to an asset (and that asset's organization); its name is unique per
// asset. Enum types and bit-field elements are not stored locally and are
// always empty.
import { randomUUID } from 'node:crypto';
import {
  ChannelDataType,
  type Channel,
  type ChannelDataTypeName,
  type ChannelPatch,
  type CreateChannelInput,
} from '../../../src-shared/api/channels';
import { formatTimestamp, nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { visibleTo } from '../../auth/caller';
import { loadByPks, loadMetadata } from '../../db/childRows';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { channelListSpec } from './listSpecs';
import { organizationScope } from './scope';
import { insertChannel, replaceChannelMetadata, setChannelColumns } from './referenceStores';
import { checkMask } from './updateMask';

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
  const metadata = loadMetadata(db, 'channel_metadata', 'channel_pk', pks);
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
    metadata: metadata.get(r.pk) ?? [],
    active: r.active === 1,
  }));
}

function findVisibleChannel(ctx: RequestContext, channelId: string): ChannelRow {
  const scope = visibleTo(ctx.caller, 'organization_id');
  const row = ctx.db.get<ChannelRow>(`SELECT * FROM channels WHERE id = ? AND ${scope.sql}`, [channelId, ...scope.params]);
  if (!row) throw ApiError.notFound('channel', channelId);
  return row;
}

export function getChannel(ctx: RequestContext, channelId: string): { channel: Channel } {
  return { channel: loadChannels(ctx.db, [findVisibleChannel(ctx, channelId).pk])[0] };
}

const UPDATABLE_PATHS = ['display_description', 'display_unit_id', 'metadata', 'active'] as const;
const IMMUTABLE_PATHS = new Set([
  'channel_id',
  'name',
  'asset_id',
  'description',
  'unit_id',
  'created_date',
  'modified_date',
  'created_by_user_id',
  'modified_by_user_id',
  'data_type',
  'enum_types',
  'bit_field_elements',
]);
/** The platform documents the display unit's mask path as `display_units`; the field is display_unit_id. */
const MASK_ALIASES: Readonly<Record<string, string>> = { display_units: 'display_unit_id' };

export function updateChannel(ctx: RequestContext, patch: ChannelPatch, mask: readonly string[]): { channel: Channel } {
  const { db, caller } = ctx;
  const paths = checkMask(
    mask.map((p) => MASK_ALIASES[p] ?? p),
    UPDATABLE_PATHS,
    IMMUTABLE_PATHS,
  );
  return db.tx(() => {
    const row = findVisibleChannel(ctx, patch.channelId);
    const displayUnitId = patch.displayUnitId ?? '';
    if (
      paths.has('display_unit_id') &&
      displayUnitId !== '' &&
      !db.get('SELECT 1 FROM units WHERE id = ? AND organization_id = ?', [displayUnitId, row.organization_id])
    )
      throw ApiError.invalid('channel.display_unit_id', `unknown unit '${displayUnitId}'`);
    setChannelColumns(db, row.pk, {
      display_description: paths.has('display_description') ? (patch.displayDescription ?? '') : undefined,
      display_unit_id: paths.has('display_unit_id') ? displayUnitId : undefined,
      // A mask naming `active` with the field unset sets the proto3 default, false (archived), as the platform would.
      active: paths.has('active') ? (patch.active ? 1 : 0) : undefined,
      modified_date: nowMicros(),
      modified_by_user_id: caller.userId,
    });
    if (paths.has('metadata')) replaceChannelMetadata(db, row.pk, patch.metadata ?? [], 'channel.metadata');
    return { channel: loadChannels(db, [row.pk])[0] };
  });
}

/** BatchArchiveChannels / BatchUnarchiveChannels: every named channel must be visible, or nothing changes. */
export function setChannelsActive(ctx: RequestContext, channelIds: readonly string[], active: boolean): Record<string, never> {
  return ctx.db.tx(() => {
    const unique = [...new Set(channelIds)];
    const scope = visibleTo(ctx.caller, 'organization_id');
    const rows = ctx.db.all<{ pk: number; id: string; active: number }>(
      `SELECT c.pk, c.id, c.active FROM json_each(?) j CROSS JOIN channels c ON c.id = j.value WHERE ${scope.sql}`,
      [JSON.stringify(unique), ...scope.params],
    );
    const found = new Set(rows.map((r) => r.id));
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length) throw ApiError.notFound('channel', missing.join(', '));
    const now = nowMicros();
    for (const r of rows) {
      if ((r.active === 1) === active) continue;
      setChannelColumns(ctx.db, r.pk, { active: active ? 1 : 0, modified_date: now, modified_by_user_id: ctx.caller.userId });
    }
    return {};
  });
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
