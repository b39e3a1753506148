// "Filter by this value" from an annotation's metadata: the CEL clause that
// lists the annotations whose metadata has the same value under the same key,
// added to the filter already applied.
import type { MetadataValue } from '../../../../src-shared/api/metadata';

/** A CEL string literal (double-quoted; JSON's escapes are CEL's). */
const celString = (s: string) => JSON.stringify(s);

/**
 * The clause matching this metadata value: `metadata["env"] == "prod"`, `metadata["runs"] == 3`, `… == true`;
 * undefined for a relation value (it points to another record; the filter has no literal for it).
 */
export function metadataClause(m: MetadataValue): string | undefined {
  const lookup = `metadata[${celString(m.key.name)}]`;
  switch (m.key.type) {
    case 'METADATA_KEY_TYPE_NUMBER':
      return `${lookup} == ${String(m.numberValue ?? 0)}`;
    case 'METADATA_KEY_TYPE_BOOLEAN':
      return `${lookup} == ${m.booleanValue ? 'true' : 'false'}`;
    case 'METADATA_KEY_TYPE_RELATION':
      return undefined;
    default:
      return `${lookup} == ${celString(m.stringValue ?? '')}`;
  }
}

/** `filter && clause` (a filter with a top-level || in parentheses); the clause alone when there is no filter or it is already in it. */
export function andClause(filter: string, clause: string): string {
  const f = filter.trim();
  if (!f) return clause;
  if (f === clause || f.endsWith(`&& ${clause}`)) return f;
  return /\|\|/.test(f) ? `(${f}) && ${clause}` : `${f} && ${clause}`;
}
