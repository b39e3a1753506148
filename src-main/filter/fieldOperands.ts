// Operands read from declared fields: a column of the row or of a related
// row, a typed map value, or a dyn map value with its type tag.
import { familyOfType, type ConstValue } from './constants';
import { celTypeName } from './celEnvironment';
import type { CelScalarType, MapField, ValueSpec } from './fields';
import type { DynOperand, Operand, ValueOperand } from './operands';
import { withAliases, type Aliases } from './relatedRows';
import { join, param, sql, type Sql, TRUE } from './sql';

export function constParam(v: ConstValue): string | number | bigint {
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint') return v;
  return (v as { valueOf(): bigint }).valueOf();
}

/** Map entries with a type tag the declaration does not know are invisible (a missing key). */
export function visibleEntry(f: MapField, aliases: Aliases): Sql {
  if (f.value.kind !== 'dyn') return TRUE;
  const tags = [f.value.string, f.value.double, f.value.bool].flatMap((v) => (v ? [param(BigInt(v.tag))] : []));
  return sql`${withAliases(f.value.tag, aliases)} IN (${join(tags, ', ')})`;
}

export function valueOperand(
  spec: Pick<ValueSpec, 'type' | 'sql' | 'nullable' | 'whenTrue' | 'whenFalse'>,
  aliases: Aliases,
): ValueOperand {
  return {
    kind: 'value',
    family: familyOfType(spec.type as CelScalarType) as ValueOperand['family'],
    sql: withAliases(spec.sql, aliases),
    nsOffset: 0n,
    onNull: spec.nullable ? 'null' : 'never',
    whenTrue: spec.whenTrue !== undefined ? withAliases(spec.whenTrue, aliases) : undefined,
    whenFalse: spec.whenFalse !== undefined ? withAliases(spec.whenFalse, aliases) : undefined,
    numeric: spec.type === 'int' || spec.type === 'uint' || spec.type === 'double' ? spec.type : undefined,
    declaredType: spec.nullable ? celTypeName(spec.type as CelScalarType) : undefined,
  };
}

export function mapValueOperand(f: MapField, aliases: Aliases): Operand {
  const v = f.value;
  if (v.kind === 'typed') return valueOperand({ type: v.type, sql: v.sql }, aliases);
  const tag = withAliases(v.tag, aliases);
  const variants: DynOperand['variants'][number][] = [];
  const add = (family: ValueOperand['family'], spec: { tag: number; sql: string } | undefined) => {
    if (!spec) return;
    variants.push({
      when: sql`${tag} = ${param(BigInt(spec.tag))}`,
      value: {
        kind: 'value',
        family,
        numeric: family === 'number' ? 'double' : undefined,
        sql: withAliases(spec.sql, aliases),
        nsOffset: 0n,
        onNull: 'never',
      },
    });
  };
  add('string', v.string);
  add('number', v.double);
  add('bool', v.bool);
  return { kind: 'dyn', variants };
}
