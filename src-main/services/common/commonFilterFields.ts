// Filter-field declarations several resources share (kinds: filter/fields.ts).
// Every resource stores metadata the same way (db/childRows.ts), derives
// is_archived from a nullable archived_date, and stores bools as 0/1.
import { MetadataKeyType } from '../../../src-shared/api/metadata';
import type { MapField, ScalarField } from '../../filter/fields';

/**
 * `metadata['key']` / `metadata.key` over a metadata child table keyed by the
 * parent's pk. The value's CEL type follows the stored type tag (string,
 * number -> double, boolean); entries of other types are invisible.
 */
export function metadataMap(table: string, parentPkColumn: string): MapField {
  return {
    kind: 'map',
    rows: { from: `${table} {md}`, parentKey: 't.pk', childKey: `{md}.${parentPkColumn}` },
    key: '{md}.key',
    value: {
      kind: 'dyn',
      tag: '{md}.type',
      string: { tag: MetadataKeyType.numbers.METADATA_KEY_TYPE_STRING, sql: '{md}.string_value' },
      double: { tag: MetadataKeyType.numbers.METADATA_KEY_TYPE_NUMBER, sql: '{md}.number_value' },
      bool: { tag: MetadataKeyType.numbers.METADATA_KEY_TYPE_BOOLEAN, sql: '{md}.boolean_value' },
    },
  };
}

/** A NOT NULL 0/1 column as a CEL bool, with sargable forms of both values. */
export function boolColumn(column: string): ScalarField {
  return { kind: 'scalar', type: 'bool', sql: column, whenTrue: `${column} = 1`, whenFalse: `${column} = 0` };
}

/** `is_archived`: derived from a nullable archived_date column (never absent itself). */
export function isArchivedFrom(archivedDateColumn: string): ScalarField {
  return {
    kind: 'scalar',
    type: 'bool',
    sql: `(${archivedDateColumn} IS NOT NULL)`,
    whenTrue: `${archivedDateColumn} IS NOT NULL`,
    whenFalse: `${archivedDateColumn} IS NULL`,
  };
}
