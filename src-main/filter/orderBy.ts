// AIP-132 order_by: "field[ desc][, field2[ desc]]", whitespace tolerant,
// only the resource's documented fields.
import { ApiError } from '../../src-shared/errors';
import type { ListSpec, OrderTerm } from './resource';

export function parseOrderBy(spec: ListSpec, orderBy: string | undefined): OrderTerm[] {
  if (!orderBy || orderBy.trim() === '') return [...spec.defaultOrder];
  const terms: OrderTerm[] = [];
  const seen = new Set<string>();
  for (const raw of orderBy.split(',')) {
    const words = raw.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0 || words.length > 2) {
      throw ApiError.invalid('order_by', `cannot parse '${raw.trim()}': expected "field" or "field desc"`);
    }
    const field = words[0].replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
    const dir = words[1]?.toLowerCase();
    if (dir !== undefined && dir !== 'desc' && dir !== 'asc') {
      throw ApiError.invalid('order_by', `unknown direction '${words[1]}' for '${words[0]}' (only "desc" or "asc" may follow a field)`);
    }
    if (!Object.hasOwn(spec.orderFields, field)) {
      throw ApiError.invalid(
        'order_by',
        `cannot order ${spec.resource} by '${words[0]}'; allowed fields: ${Object.keys(spec.orderFields).join(', ')}`,
      );
    }
    if (seen.has(field)) throw ApiError.invalid('order_by', `field '${words[0]}' appears more than once`);
    seen.add(field);
    terms.push({ field, desc: dir === 'desc' });
  }
  return terms;
}

export function normalizeOrderBy(terms: readonly OrderTerm[]): string {
  return terms.map((t) => (t.desc ? `${t.field} desc` : t.field)).join(',');
}
