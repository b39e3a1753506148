// Constant values of a filter (literals and folded constant sub-expressions)
// and the value "families" CEL compares across: ints, uints and doubles
// compare numerically with each other; other types only with themselves.
import { CEL_DURATION, CEL_TIMESTAMP } from './celEnvironment';
import type { CelScalarType } from './fields';
import type { TimeValue } from './timeValues';

/** A constant whose evaluation failed: CEL errors are values that propagate (`1/0 == 1 || true` is true). */
export class CelErrorValue {
  readonly message: string;

  constructor(message: string) {
    this.message = message;
  }
}

export class TimeConstant implements TimeValue {
  readonly kind: 'timestamp' | 'duration';
  readonly ns: bigint;

  constructor(kind: 'timestamp' | 'duration', ns: bigint) {
    this.kind = kind;
    this.ns = ns;
  }
}

/**
 * A constant in the CEL library's runtime representation (string, bigint for
 * int, number for double, boolean, null, the library's uint wrapper, arrays,
 * maps, Uint8Array) or a TimeConstant or a CelErrorValue.
 */
export type ConstValue = unknown;

export type Family = 'string' | 'number' | 'bool' | 'null' | 'timestamp' | 'duration' | 'bytes' | 'list' | 'map' | 'other' | 'error';

/** The CEL library's uint wrapper (not exported by the library). */
export function isUint(v: unknown): v is { valueOf(): bigint } {
  return typeof v === 'object' && v !== null && v.constructor?.name === 'UnsignedInt';
}

export function familyOfConst(v: ConstValue): Family {
  if (v instanceof CelErrorValue) return 'error';
  if (v instanceof TimeConstant) return v.kind;
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'bigint':
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
  }
  if (isUint(v)) return 'number';
  if (v instanceof Uint8Array) return 'bytes';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map || (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)) return 'map';
  return 'other';
}

export function familyOfType(type: CelScalarType): Family {
  switch (type) {
    case 'int':
    case 'uint':
    case 'double':
      return 'number';
    default:
      return type;
  }
}

/** Family of a checked CEL type name, or undefined for dyn (decided at run time). */
export function familyOfTypeName(name: string | undefined): Family | undefined {
  if (name === undefined || name === 'dyn') return undefined;
  if (name === 'int' || name === 'uint' || name === 'double') return 'number';
  if (name === 'string' || name === 'bool' || name === 'bytes') return name;
  if (name === 'null') return 'null';
  if (name === CEL_TIMESTAMP) return 'timestamp';
  if (name === CEL_DURATION) return 'duration';
  if (name.startsWith('list')) return 'list';
  if (name.startsWith('map')) return 'map';
  return 'other';
}

/** A numeric constant as a SQL parameter: ints as BigInt (exact int64), doubles as numbers. */
export function numericParam(v: ConstValue): bigint | number {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  return (v as { valueOf(): bigint }).valueOf();
}
