// timestamp ± duration, timestamp - timestamp and duration ± duration on
// stored values. A time operand is `sql * 1000 + nsOffset` nanoseconds, so
// adding a constant only moves the offset and `start_time + duration('1h') <
// timestamp(...)` still compiles to a range on the start_time index. Results
// outside CEL's range are errors, expressed as a guard on the operand.
import { CelErrorValue, TimeConstant } from './constants';
import type { ConstOperand, Operand, ValueOperand } from './operands';
import { and, param, sql, type Sql, TRUE } from './sql';
import { ceilDiv, floorDiv, MAX_DURATION_NS, MAX_TIMESTAMP_DIFFERENCE_NS, MAX_TIMESTAMP_NS, MIN_TIMESTAMP_NS } from './timeValues';

type TimeKind = 'timestamp' | 'duration';

function resultKind(op: '+' | '-', a: TimeKind, b: TimeKind): TimeKind | undefined {
  if (op === '+') {
    if (a === 'timestamp' && b === 'timestamp') return undefined;
    return a === 'timestamp' || b === 'timestamp' ? 'timestamp' : 'duration';
  }
  if (a === 'duration' && b === 'timestamp') return undefined;
  return a === b ? 'duration' : 'timestamp';
}

function rangeOf(kind: TimeKind, op: '+' | '-', a: TimeKind, b: TimeKind): [bigint, bigint] {
  if (kind === 'timestamp') return [MIN_TIMESTAMP_NS, MAX_TIMESTAMP_NS];
  if (op === '-' && a === 'timestamp' && b === 'timestamp') return [-MAX_TIMESTAMP_DIFFERENCE_NS, MAX_TIMESTAMP_DIFFERENCE_NS];
  return [-MAX_DURATION_NS, MAX_DURATION_NS];
}

/** TRUE where `sql * 1000 + offset` lies within [lo, hi] nanoseconds. */
function inRange(value: Sql, offset: bigint, [lo, hi]: [bigint, bigint]): Sql {
  return sql`${value} BETWEEN ${param(ceilDiv(lo - offset, 1000n))} AND ${param(floorDiv(hi - offset, 1000n))}`;
}

/**
 * The sum or difference of two time operands of which at least one is a
 * stored value; undefined when the types do not combine (the caller reports it).
 */
export function timeArithmetic(op: '+' | '-', a: ValueOperand | ConstOperand, b: ValueOperand | ConstOperand): Operand | undefined {
  if ((a.kind === 'const' && a.value instanceof CelErrorValue) || (b.kind === 'const' && b.value instanceof CelErrorValue)) {
    return a.kind === 'const' && a.value instanceof CelErrorValue ? a : b;
  }
  const kindOf = (o: ValueOperand | ConstOperand): TimeKind | undefined => {
    if (o.kind === 'const') return o.value instanceof TimeConstant ? o.value.kind : undefined;
    return o.family === 'timestamp' || o.family === 'duration' ? o.family : undefined;
  };
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (!ka || !kb) return undefined;
  const kind = resultKind(op, ka, kb);
  if (!kind) return undefined;

  const sign = op === '+' ? 1n : -1n;
  let value: Sql | undefined;
  let offset = 0n;
  let guard: Sql = TRUE;
  let nullable = false;
  for (const [o, s] of [
    [a, 1n],
    [b, sign],
  ] as const) {
    if (o.kind === 'const') {
      offset += s * (o.value as TimeConstant).ns;
      continue;
    }
    offset += s * o.nsOffset;
    guard = and(guard, o.guard ?? TRUE);
    nullable ||= o.onNull !== 'never';
    const term = s === 1n ? o.sql : sql`-(${o.sql})`;
    value = value === undefined ? term : s === 1n ? sql`(${value} + ${o.sql})` : sql`(${value} - ${o.sql})`;
  }
  if (value === undefined) return undefined;
  const result: ValueOperand = {
    kind: 'value',
    family: kind,
    sql: value,
    nsOffset: offset,
    // null + duration is an error (no overload), not null.
    onNull: nullable ? 'error' : 'never',
    guard: and(guard, inRange(value, offset, rangeOf(kind, op, ka, kb))),
  };
  return result;
}
