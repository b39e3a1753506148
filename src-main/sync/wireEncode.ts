// Validated requests (zod output: epoch micros, snake_case mask paths) back to
// wire JSON for the remote, which may be the real platform (camelCase masks,
// RFC 3339 timestamps, non-finite doubles as strings).
import { formatTimestamp } from '../../src-shared/api/time';
import type { MetadataValueIn, MetadataValueInput } from '../../src-shared/api/metadata';
import { snakeToCamel } from '../../src-shared/api/wire';
import type { WireOf } from './wireTypes';

/** Epoch micros -> RFC 3339 (absent stays absent). */
export function ts(micros: number): string;
export function ts(micros: number | undefined | null): string | undefined;
export function ts(micros: number | undefined | null): string | undefined {
  return micros === undefined || micros === null ? undefined : formatTimestamp(micros);
}

export const mask = (paths: readonly string[]): string => paths.map((p) => p.split('.').map(snakeToCamel).join('.')).join(',');

function num(n: number): number | string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  return n;
}

/** MetadataValue input (validated) -> wire. */
export function metadataOut(list: readonly MetadataValueInput[] | undefined): WireOf<typeof MetadataValueIn>[] | undefined {
  if (!list) return undefined;
  return list.map((m) => {
    const key: Record<string, unknown> = { name: m.key.name };
    if (m.key.type !== undefined) key.type = m.key.type;
    if (m.key.archivedDate !== undefined) key.archivedDate = ts(m.key.archivedDate);
    if (m.key.isArchived !== undefined) key.isArchived = m.key.isArchived;
    const out: Record<string, unknown> = { key };
    if (m.stringValue !== undefined) out.stringValue = m.stringValue;
    if (m.numberValue !== undefined) out.numberValue = num(m.numberValue);
    if (m.booleanValue !== undefined) out.booleanValue = m.booleanValue;
    if (m.relationValue !== undefined) out.relationValue = m.relationValue;
    if (m.archivedDate !== undefined) out.archivedDate = ts(m.archivedDate);
    if (m.isArchived !== undefined) out.isArchived = m.isArchived;
    // (Each member above is the wire form of its input member.)
    return out as WireOf<typeof MetadataValueIn>;
  });
}

/** Drops undefined members (they would be omitted anyway; keeps stored results small). */
export function compact<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
