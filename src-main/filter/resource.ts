// What a list operation declares about its resource so that filter, order_by
// and paging can be compiled to SQL. One ListSpec per listable resource.
import type { FilterFields } from './fields';

export interface OrderField {
  /** SQL expression over the base table alias `t`; must never be NULL (COALESCE nullable columns). */
  readonly sql: string;
  /** How the cursor value is stored: numbers (timestamps, ints), text, or bytes (base64 in the page token). */
  readonly type: 'number' | 'text' | 'blob';
}

export interface OrderTerm {
  readonly field: string;
  readonly desc: boolean;
}

export interface ListSpec {
  /** Resource name used in messages (e.g. `annotations`). */
  readonly resource: string;
  /** `FROM` clause; the base table must be aliased `t`. */
  readonly from: string;
  /** Unique, non-null integer tie-break column over `t` (e.g. `t.pk`). */
  readonly tieBreak: string;
  /** order_by field name (snake_case, as documented) -> SQL. */
  readonly orderFields: Readonly<Record<string, OrderField>>;
  readonly defaultOrder: readonly OrderTerm[];
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
  /** CEL-filterable fields (declared per resource; see fields.ts). */
  readonly filterFields: FilterFields;
  /**
   * When the rows belong to records of another table (an annotation's logs): that table and the column holding the
   * parent's pk. The policies on the parent decide which rows the list shows (filter/listGate.ts).
   */
  readonly authorizedThrough?: { readonly table: string; readonly parentColumn: string };
}
