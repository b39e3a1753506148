// The reference tables' rows — tags, assets, runs, channels, units and their
// child lists — are written here and nowhere else: by the API's services (create,
// update, archive, stop), by sync (the reference data pulled from the remote,
// upserted so that a re-read of an unchanged record writes nothing) and by the
// demo seed. Values are as stored (epoch micros, enum numbers).
import type { MetadataValueInput } from '../../../src-shared/api/metadata';
import { replaceList, replaceMetadata } from '../../db/childRows';
import type { Db, SqlValue } from '../../db/database';

type Values<K extends string> = Readonly<Partial<Record<K, SqlValue>>>;

const columnsOf = (values: Readonly<Record<string, SqlValue | undefined>>) => Object.keys(values).filter((c) => values[c] !== undefined);
const valuesOf = (values: Readonly<Record<string, SqlValue | undefined>>, columns: readonly string[]) =>
  columns.map((c) => values[c] as SqlValue);

/**
 * The DO UPDATE part of a conditional upsert: `columns` take the incoming values only when one of them differs
 * (so an unchanged re-read writes nothing and reports no change).
 */
function updateIfChanged(table: string, columns: readonly string[]): string {
  return `DO UPDATE SET ${columns.map((c) => `${c} = excluded.${c}`).join(', ')} WHERE ${columns.map((c) => `${table}.${c} IS NOT excluded.${c}`).join(' OR ')}`;
}

// ---- tags ------------------------------------------------------------------------

type TagColumn = 'id' | 'organization_id' | 'name' | 'created_by_user_id' | 'created_date';

/** Inserts a tag; with `ifAbsent`, a tag of that name (or id) already there is left as it is. Returns whether a row was added. */
export function insertTag(db: Db, tag: Values<TagColumn>, options: { ifAbsent?: boolean } = {}): boolean {
  const columns = columnsOf(tag);
  return (
    db.run(
      `INSERT ${options.ifAbsent ? 'OR IGNORE ' : ''}INTO tags(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      valuesOf(tag, columns),
    ).changes > 0
  );
}

/** A remote tag: a local one of the same name takes its id (tags are referenced by name), then the row is upserted. Returns whether anything changed. */
export function upsertRemoteTag(db: Db, tag: Values<TagColumn> & { id: string; organization_id: string; name: string }): boolean {
  const rekeyed = db.run('UPDATE tags SET id = ? WHERE organization_id = ? AND name = ? AND id != ?', [
    tag.id,
    tag.organization_id,
    tag.name,
    tag.id,
  ]).changes;
  const columns = columnsOf(tag);
  const upserted = db.run(
    `INSERT INTO tags(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT(id) ${updateIfChanged('tags', ['name', 'created_by_user_id', 'created_date'])}`,
    valuesOf(tag, columns),
  ).changes;
  return rekeyed + upserted > 0;
}

// ---- assets ------------------------------------------------------------------------

type AssetColumn =
  'id' | 'organization_id' | 'name' | 'created_date' | 'created_by_user_id' | 'modified_date' | 'modified_by_user_id' | 'archived_date';
const ASSET_UPDATE = updateIfChanged('assets', ['name', 'modified_date', 'modified_by_user_id', 'archived_date']);

/** Inserts an asset (`ifAbsent`: unless its id or name is taken); returns its pk, or undefined when none was added. */
export function insertAsset(db: Db, asset: Values<AssetColumn>, options: { ifAbsent?: boolean } = {}): number | undefined {
  const columns = columnsOf(asset);
  const info = db.run(
    `INSERT ${options.ifAbsent ? 'OR IGNORE ' : ''}INTO assets(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    valuesOf(asset, columns),
  );
  return info.changes ? Number(info.lastInsertRowid) : undefined;
}

/** A remote asset, upserted; a local asset holding its name (made offline) is renamed away first. Returns its pk and whether the row changed. */
export function upsertRemoteAsset(
  db: Db,
  asset: Values<AssetColumn> & { id: string; organization_id: string; name: string },
): { pk: number; changed: boolean } {
  renameClashingAsset(db, asset.organization_id, asset.name, asset.id);
  const columns = columnsOf(asset);
  const changed =
    db.run(
      `INSERT INTO assets(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT(id) ${ASSET_UPDATE}`,
      valuesOf(asset, columns),
    ).changes > 0;
  return { pk: db.get<{ pk: number }>('SELECT pk FROM assets WHERE id = ?', [asset.id])!.pk, changed };
}

export function setAssetColumns(db: Db, pk: number, values: Values<'archived_date' | 'modified_date' | 'modified_by_user_id'>): void {
  const columns = columnsOf(values);
  if (columns.length)
    db.run(`UPDATE assets SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE pk = ?`, [...valuesOf(values, columns), pk]);
}

export const replaceAssetTags = (db: Db, pk: number, tags: readonly string[]): boolean =>
  replaceList(db, 'asset_tags', 'asset_pk', 'tag_name', pk, tags);
export const replaceAssetMetadata = (db: Db, pk: number, metadata: readonly MetadataValueInput[], field = 'metadata'): boolean =>
  replaceMetadata(db, 'asset_metadata', 'asset_pk', pk, metadata, field);

/** Renames a local asset that holds a unique name the remote's asset needs. */
function renameClashingAsset(db: Db, organizationId: string, name: string, id: string): void {
  const clash = db.get<{ id: string }>('SELECT id FROM assets WHERE organization_id = ? AND name = ? AND id != ?', [
    organizationId,
    name,
    id,
  ]);
  if (clash) db.run('UPDATE assets SET name = ? WHERE id = ?', [`${name} (local ${clash.id.slice(0, 8)})`, clash.id]);
}

// ---- runs ----------------------------------------------------------------------------

type RunColumn =
  | 'id'
  | 'organization_id'
  | 'name'
  | 'description'
  | 'start_time'
  | 'stop_time'
  | 'is_pinned'
  | 'client_key'
  | 'default_report_id'
  | 'is_adhoc'
  | 'created_date'
  | 'created_by_user_id'
  | 'modified_date'
  | 'modified_by_user_id'
  | 'archived_date';
const RUN_UPDATE = updateIfChanged('runs', [
  'name',
  'description',
  'start_time',
  'stop_time',
  'is_pinned',
  'client_key',
  'default_report_id',
  'is_adhoc',
  'modified_date',
  'modified_by_user_id',
  'archived_date',
]);

/** Inserts a run (`ifAbsent`: unless its id is taken); returns its pk, or undefined when none was added. */
export function insertRun(db: Db, run: Values<RunColumn>, options: { ifAbsent?: boolean } = {}): number | undefined {
  const columns = columnsOf(run);
  const info = db.run(
    `INSERT ${options.ifAbsent ? 'OR IGNORE ' : ''}INTO runs(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    valuesOf(run, columns),
  );
  return info.changes ? Number(info.lastInsertRowid) : undefined;
}

/** A remote run, upserted (a local run holding its client key gives the key up). Returns its pk and whether the row changed. */
export function upsertRemoteRun(
  db: Db,
  run: Values<RunColumn> & { id: string; organization_id: string },
): { pk: number; changed: boolean } {
  if (run.client_key)
    db.run('UPDATE runs SET client_key = NULL WHERE organization_id = ? AND client_key = ? AND id != ?', [
      run.organization_id,
      run.client_key,
      run.id,
    ]);
  const columns = columnsOf(run);
  const changed =
    db.run(
      `INSERT INTO runs(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT(id) ${RUN_UPDATE}`,
      valuesOf(run, columns),
    ).changes > 0;
  return { pk: db.get<{ pk: number }>('SELECT pk FROM runs WHERE id = ?', [run.id])!.pk, changed };
}

export function setRunColumns(db: Db, pk: number, values: Values<Exclude<RunColumn, 'id' | 'organization_id'>>): void {
  const columns = columnsOf(values);
  if (columns.length)
    db.run(`UPDATE runs SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE pk = ?`, [...valuesOf(values, columns), pk]);
}

export const replaceRunAssets = (db: Db, pk: number, assetIds: readonly string[]): boolean =>
  replaceList(db, 'run_assets', 'run_pk', 'asset_id', pk, assetIds);
export const replaceRunTags = (db: Db, pk: number, tags: readonly string[]): boolean =>
  replaceList(db, 'run_tags', 'run_pk', 'tag_name', pk, tags);
export const replaceRunMetadata = (db: Db, pk: number, metadata: readonly MetadataValueInput[], field = 'metadata'): boolean =>
  replaceMetadata(db, 'run_metadata', 'run_pk', pk, metadata, field);

// ---- channels ------------------------------------------------------------------------

type ChannelColumn =
  | 'id'
  | 'organization_id'
  | 'asset_id'
  | 'name'
  | 'description'
  | 'unit_id'
  | 'data_type'
  | 'display_description'
  | 'display_unit_id'
  | 'active'
  | 'created_date'
  | 'created_by_user_id'
  | 'modified_date'
  | 'modified_by_user_id';
const CHANNEL_UPDATE = updateIfChanged('channels', [
  'name',
  'description',
  'unit_id',
  'data_type',
  'display_description',
  'display_unit_id',
  'active',
  'modified_date',
  'modified_by_user_id',
]);

/** Inserts a channel (`ifAbsent`: unless its id or its name on the asset is taken); returns its pk, or undefined when none was added. */
export function insertChannel(db: Db, channel: Values<ChannelColumn>, options: { ifAbsent?: boolean } = {}): number | undefined {
  const columns = columnsOf(channel);
  const info = db.run(
    `INSERT ${options.ifAbsent ? 'OR IGNORE ' : ''}INTO channels(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    valuesOf(channel, columns),
  );
  return info.changes ? Number(info.lastInsertRowid) : undefined;
}

/** A remote channel, upserted; a local channel of the same name on the asset (made offline) gives way. Returns whether the row changed. */
export function upsertRemoteChannel(db: Db, channel: Values<ChannelColumn> & { id: string; asset_id: string; name: string }): boolean {
  db.run('DELETE FROM channels WHERE asset_id = ? AND name = ? AND id != ?', [channel.asset_id, channel.name, channel.id]);
  const columns = columnsOf(channel);
  return (
    db.run(
      `INSERT INTO channels(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT(id) ${CHANNEL_UPDATE}`,
      valuesOf(channel, columns),
    ).changes > 0
  );
}

export function setChannelColumns(
  db: Db,
  pk: number,
  values: Values<'display_description' | 'display_unit_id' | 'active' | 'modified_date' | 'modified_by_user_id'>,
): void {
  const columns = columnsOf(values);
  if (columns.length)
    db.run(`UPDATE channels SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE pk = ?`, [...valuesOf(values, columns), pk]);
}

export const replaceChannelMetadata = (db: Db, pk: number, metadata: readonly MetadataValueInput[], field = 'metadata'): boolean =>
  replaceMetadata(db, 'channel_metadata', 'channel_pk', pk, metadata, field);

// ---- units ---------------------------------------------------------------------------

type UnitColumn = 'id' | 'organization_id' | 'name' | 'created_date' | 'created_by_user_id';

/** Inserts a unit; returns its pk, or undefined when its organization already has a unit of that name. */
export function insertUnit(db: Db, unit: Values<UnitColumn>): number | undefined {
  const columns = columnsOf(unit);
  const info = db.run(
    `INSERT OR IGNORE INTO units(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    valuesOf(unit, columns),
  );
  return info.changes ? Number(info.lastInsertRowid) : undefined;
}
