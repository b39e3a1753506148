// sift.metadata.v1.MetadataValue: embedded in annotations, rules, runs, assets,
// channels, test reports and more (reference §2).
import { z } from 'zod';
import { parseTimestamp, formatOptionalTimestamp, type Micros } from './time';
import { boolIn, doubleIn, message, protoEnum, response, timestampIn, nullableTimestampOut } from './wire';

export const MetadataKeyType = protoEnum('MetadataKeyType', {
  METADATA_KEY_TYPE_UNSPECIFIED: 0,
  METADATA_KEY_TYPE_STRING: 1,
  METADATA_KEY_TYPE_NUMBER: 2,
  METADATA_KEY_TYPE_BOOLEAN: 3,
  METADATA_KEY_TYPE_RELATION: 4,
});
export type MetadataKeyTypeName = (typeof MetadataKeyType.names)[number];

/** sift.common.v1.FilterFieldType (reference §1.8): MetadataKey.filter_field_type, output only, derived from the key type. */
export const FilterFieldType = protoEnum('FilterFieldType', {
  FILTER_FIELD_TYPE_UNSPECIFIED: 0,
  FILTER_FIELD_TYPE_STRING: 1,
  FILTER_FIELD_TYPE_TIMESTAMP: 2,
  FILTER_FIELD_TYPE_INT: 3,
  FILTER_FIELD_TYPE_BOOL: 4,
  FILTER_FIELD_TYPE_DURATION: 5,
  FILTER_FIELD_TYPE_DOUBLE: 6,
  FILTER_FIELD_TYPE_ENUM: 7,
  FILTER_FIELD_TYPE_UUID: 8,
});
export type FilterFieldTypeName = (typeof FilterFieldType.names)[number];

/** The filter field type a key of this type has (a relation value is a resource's UUID). */
const FILTER_TYPE_OF_KEY: Record<MetadataKeyTypeName, FilterFieldTypeName> = {
  METADATA_KEY_TYPE_UNSPECIFIED: 'FILTER_FIELD_TYPE_UNSPECIFIED',
  METADATA_KEY_TYPE_STRING: 'FILTER_FIELD_TYPE_STRING',
  METADATA_KEY_TYPE_NUMBER: 'FILTER_FIELD_TYPE_DOUBLE',
  METADATA_KEY_TYPE_BOOLEAN: 'FILTER_FIELD_TYPE_BOOL',
  METADATA_KEY_TYPE_RELATION: 'FILTER_FIELD_TYPE_UUID',
};

export const MetadataKeyIn = message({
  name: z.string().min(1, 'must not be empty'),
  type: MetadataKeyType.in.optional(),
  archivedDate: timestampIn.optional(),
  isArchived: boolIn.optional(),
  // Output only on the platform; kept when a remote sends it (a replica stores what it pulls).
  filterFieldType: FilterFieldType.in.optional(),
});

const RelationValueIn = message({ resourceType: z.string(), resourceId: z.string() });

export const MetadataValueIn = message({
  key: MetadataKeyIn,
  stringValue: z.string().optional(),
  numberValue: doubleIn.optional(),
  booleanValue: boolIn.optional(),
  relationValue: RelationValueIn.optional(),
  archivedDate: timestampIn.optional(),
  isArchived: boolIn.optional(),
}).superRefine((v, ctx) => {
  const set = ['stringValue', 'numberValue', 'booleanValue', 'relationValue'].filter(
    (k) => (v as Record<string, unknown>)[k] !== undefined,
  );
  if (set.length > 1) ctx.addIssue({ code: 'custom', message: `only one of ${set.join(', ')} may be set (oneof value)` });
});
export type MetadataValueInput = z.output<typeof MetadataValueIn>;

// archived_date is a plain (not proto3 optional) Timestamp: null when unset; is_archived false; the enum its zero name.
export const MetadataKeyOut = response({
  name: z.string(),
  type: MetadataKeyType.out,
  archivedDate: nullableTimestampOut,
  isArchived: z.boolean(),
  filterFieldType: FilterFieldType.out,
});

export const MetadataValueOut = z.object({
  key: MetadataKeyOut,
  stringValue: z.string().optional(),
  numberValue: z.number().optional(),
  booleanValue: z.boolean().optional(),
  relationValue: z.object({ resourceType: z.string(), resourceId: z.string() }).optional(),
  archivedDate: nullableTimestampOut,
  isArchived: z.boolean(),
});
export type MetadataValue = z.infer<typeof MetadataValueOut>;

/** The stored form of one metadata entry (one row of a `*_metadata` child table). */
export interface MetadataRow {
  key: string;
  type: MetadataKeyTypeName;
  stringValue: string | null;
  numberValue: number | null;
  booleanValue: number | null;
  /** The value's and the key's archive dates (epoch micros), null when not archived. */
  archivedDate: Micros | null;
  keyArchivedDate: Micros | null;
  /** A filter field type a remote sent (its number); null: derived from the key type. */
  keyFilterFieldType: number | null;
}

/**
 * An archive date as a request carries it (epoch micros once validated) or as a remote's response does (an RFC 3339
 * string: the sync stores pulled values through the same functions); `isArchived` without a date archives now.
 */
function archiveDateOf(date: unknown, isArchived: unknown): Micros | null {
  if (typeof date === 'number') return date;
  if (typeof date === 'string') return parseTimestamp(date);
  return isArchived === true ? Date.now() * 1000 : null;
}

function filterFieldTypeNumber(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && Object.hasOwn(FilterFieldType.numbers, v)) return FilterFieldType.numbers[v as FilterFieldTypeName];
  return null;
}

/** Normalizes an input value: the key type follows the value set when unspecified. */
export function metadataInputToRow(v: MetadataValueInput): MetadataRow {
  let type: MetadataKeyTypeName = v.key.type ?? 'METADATA_KEY_TYPE_UNSPECIFIED';
  if (type === 'METADATA_KEY_TYPE_UNSPECIFIED') {
    if (v.numberValue !== undefined) type = 'METADATA_KEY_TYPE_NUMBER';
    else if (v.booleanValue !== undefined) type = 'METADATA_KEY_TYPE_BOOLEAN';
    else if (v.relationValue !== undefined) type = 'METADATA_KEY_TYPE_RELATION';
    else type = 'METADATA_KEY_TYPE_STRING';
  }
  return {
    key: v.key.name,
    type,
    stringValue: v.stringValue ?? (v.relationValue ? `${v.relationValue.resourceType}/${v.relationValue.resourceId}` : null),
    numberValue: v.numberValue ?? null,
    booleanValue: v.booleanValue === undefined ? null : v.booleanValue ? 1 : 0,
    archivedDate: archiveDateOf(v.archivedDate, v.isArchived),
    keyArchivedDate: archiveDateOf(v.key.archivedDate, v.key.isArchived),
    keyFilterFieldType: filterFieldTypeNumber((v.key as { filterFieldType?: unknown }).filterFieldType),
  };
}

const filterTypeByNumber = new Map<number, FilterFieldTypeName>(FilterFieldType.names.map((n) => [FilterFieldType.numbers[n], n]));

export function metadataRowToWire(r: MetadataRow): MetadataValue {
  const filterFieldType =
    (r.keyFilterFieldType !== null ? filterTypeByNumber.get(r.keyFilterFieldType) : undefined) ?? FILTER_TYPE_OF_KEY[r.type];
  const key = {
    name: r.key,
    type: r.type,
    archivedDate: formatOptionalTimestamp(r.keyArchivedDate),
    isArchived: r.keyArchivedDate !== null,
    filterFieldType,
  };
  const out: MetadataValue = { key, archivedDate: formatOptionalTimestamp(r.archivedDate), isArchived: r.archivedDate !== null };
  if (r.type === 'METADATA_KEY_TYPE_NUMBER') out.numberValue = r.numberValue ?? 0;
  else if (r.type === 'METADATA_KEY_TYPE_BOOLEAN') out.booleanValue = r.booleanValue === 1;
  else if (r.type === 'METADATA_KEY_TYPE_RELATION') {
    const [resourceType, ...rest] = (r.stringValue ?? '/').split('/');
    out.relationValue = { resourceType, resourceId: rest.join('/') };
  } else out.stringValue = r.stringValue ?? '';
  return out;
}
