// Declarations of the CEL-filterable fields of each resource. (Owned by the
// filter engine; see compileFilter.ts.)

export type ScalarType = 'string' | 'int' | 'uint' | 'double' | 'bool' | 'timestamp' | 'duration' | 'enum';

export interface ScalarField {
  readonly kind: 'scalar';
  readonly type: ScalarType;
  /** SQL expression over the base table alias `t`. */
  readonly sql: string;
  /** For enums: full value names -> stored numbers. */
  readonly enumValues?: Readonly<Record<string, number>>;
  readonly nullable?: boolean;
}

export type FilterField = ScalarField;
export type FilterFields = Readonly<Record<string, FilterField>>;
