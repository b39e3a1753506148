// sift.metadata.v1.MetadataValue: embedded in annotations, rules, runs, assets,
// channels, test reports and more (reference §2).
import { z } from 'zod';
import { boolIn, doubleIn, message, protoEnum, response, timestampIn, nullableTimestampOut } from './wire';

export const MetadataKeyType = protoEnum('MetadataKeyType', {
  METADATA_KEY_TYPE_UNSPECIFIED: 0,
  METADATA_KEY_TYPE_STRING: 1,
  METADATA_KEY_TYPE_NUMBER: 2,
  METADATA_KEY_TYPE_BOOLEAN: 3,
  METADATA_KEY_TYPE_RELATION: 4,
});
export type MetadataKeyTypeName = (typeof MetadataKeyType.names)[number];

export const MetadataKeyIn = message({
  name: z.string().min(1, 'must not be empty'),
  type: MetadataKeyType.in.optional(),
  archivedDate: timestampIn.optional(),
  isArchived: boolIn.optional(),
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
  const set = ['stringValue', 'numberValue', 'booleanValue', 'relationValue'].filter((k) => (v as Record<string, unknown>)[k] !== undefined);
  if (set.length > 1) ctx.addIssue({ code: 'custom', message: `only one of ${set.join(', ')} may be set (oneof value)` });
});
export type MetadataValueInput = z.output<typeof MetadataValueIn>;

export const MetadataKeyOut = response({
  name: z.string(),
  type: MetadataKeyType.out,
  archivedDate: nullableTimestampOut.optional(),
  isArchived: z.boolean().optional(),
});

export const MetadataValueOut = z.object({
  key: MetadataKeyOut,
  stringValue: z.string().optional(),
  numberValue: z.number().optional(),
  booleanValue: z.boolean().optional(),
  relationValue: z.object({ resourceType: z.string(), resourceId: z.string() }).optional(),
});
export type MetadataValue = z.infer<typeof MetadataValueOut>;

/** The stored form of one metadata entry (one row of a `*_metadata` child table). */
export interface MetadataRow {
  key: string;
  type: MetadataKeyTypeName;
  stringValue: string | null;
  numberValue: number | null;
  booleanValue: number | null;
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
  };
}

export function metadataRowToWire(r: MetadataRow): MetadataValue {
  const out: MetadataValue = { key: { name: r.key, type: r.type } };
  if (r.type === 'METADATA_KEY_TYPE_NUMBER') out.numberValue = r.numberValue ?? 0;
  else if (r.type === 'METADATA_KEY_TYPE_BOOLEAN') out.booleanValue = r.booleanValue === 1;
  else if (r.type === 'METADATA_KEY_TYPE_RELATION') {
    const [resourceType, ...rest] = (r.stringValue ?? '/').split('/');
    out.relationValue = { resourceType, resourceId: rest.join('/') };
  } else out.stringValue = r.stringValue ?? '';
  return out;
}
