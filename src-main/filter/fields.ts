// Declarations of the CEL-filterable fields of each resource: what a filter
// may name, its CEL type, and the SQL that reads it. The filter engine
// (compileFilter.ts) type-checks filters against these and compiles them to
// SQL over the base table alias `t`.
//
// Kinds (they mirror sift.common.v1.FilterFieldKind):
//   scalar    one value of the row                      name == 'x'
//   enum      an int column whose values have names     state == ANNOTATION_STATE_OPEN
//   relation  has-many of scalars, "some element matches" tag_name == 'x'
//             or used as a list                          'x' in tag_name, size(tag_name), tag_name.all(t, ...)
//   messages  has-many of records, CEL comprehensions   links.exists(l, l.entity_id == 'x')
//   map       string-keyed map in a child table         metadata['env'] == 'prod'
//   directive pseudo-field that changes the scope       include_archived == true
//
// SQL in declarations is trusted code, never user input. Related rows use
// `{name}` placeholders for their table aliases (e.g. `annotation_tags {r}`);
// the compiler replaces each with an alias unique to that use so nested
// subqueries never capture each other's names.

/** CEL types a stored value can have. Timestamps and durations are stored as INTEGER microseconds, bools as 0/1. */
export type CelScalarType = 'string' | 'int' | 'uint' | 'double' | 'bool' | 'timestamp' | 'duration';

/** How one value is read from SQL. */
export interface ValueSpec {
  readonly type: CelScalarType;
  /** SQL expression over `t` (row fields) or over placeholders (related rows). */
  readonly sql: string;
  /** SQL NULL means the field is absent; the filter sees CEL `null` (see compileFilter.ts). */
  readonly nullable?: boolean;
  /** Enum value names accepted in filters -> stored numbers (type must be 'int'). */
  readonly enumValues?: Readonly<Record<string, number>>;
  /** bool only: sargable predicates equivalent to `sql = 1` and `sql = 0`. */
  readonly whenTrue?: string;
  readonly whenFalse?: string;
}

export interface ScalarField extends ValueSpec {
  readonly kind: 'scalar';
}

export interface EnumField {
  readonly kind: 'enum';
  readonly sql: string;
  /** Names as users write them (full proto names, or bare names for enums that compare without prefix). */
  readonly values: Readonly<Record<string, number>>;
  readonly nullable?: boolean;
}

/** Child rows correlated to the filtered row `t`. */
export interface RelatedRows {
  /** FROM clause with `{alias}` placeholders, e.g. `annotation_tags {r}`. */
  readonly from: string;
  /**
   * The FROM clause of subqueries correlated to one parent row (EXISTS, NOT EXISTS, counts) when it must name the
   * index by parent key (`INDEXED BY`, same placeholders): SQLite otherwise seeks a value index that also ends in the
   * parent key, about twice as slow per row as the child rows of one parent (bench/filter, metadata key).
   */
  readonly fromByParent?: string;
  /** SQL over `t` that the child rows point at, e.g. `t.pk`. */
  readonly parentKey: string;
  /** SQL over the child rows holding parentKey, e.g. `{r}.annotation_pk`. */
  readonly childKey: string;
}

/** One source of a relation's elements: related rows, or a value of `t` itself (a one-element set). */
export type RelationSource = { readonly rows: RelatedRows; readonly value: string } | { readonly rows?: undefined; readonly value: string };

export interface RelationField {
  readonly kind: 'relation';
  /** The element type; filters use the field as if it were one element (`tag_name == 'x'`). */
  readonly type: CelScalarType;
  readonly enumValues?: Readonly<Record<string, number>>;
  /**
   * The element set is the union of these sources. An empty list declares a
   * relation the local schema cannot link yet: it has no elements.
   */
  readonly sources: readonly RelationSource[];
}

/** A member of a record in a `messages` relation. */
export type MemberSpec = ValueSpec;

export interface MessagesField {
  readonly kind: 'messages';
  /** CEL type name of one record (unique per resource), e.g. `ArtifactLink`. */
  readonly typeName: string;
  readonly rows: RelatedRows;
  /** Member name -> SQL over the placeholders of `rows.from`. */
  readonly members: Readonly<Record<string, MemberSpec>>;
}

/**
 * A map value whose CEL type depends on a type tag stored next to it (CEL
 * type dyn), e.g. metadata: type 1 string_value, 2 number_value, 3 boolean_value.
 * Rows with other tags are invisible to filters.
 */
export interface DynMapValue {
  readonly kind: 'dyn';
  readonly tag: string;
  readonly string?: { readonly tag: number; readonly sql: string };
  readonly double?: { readonly tag: number; readonly sql: string };
  readonly bool?: { readonly tag: number; readonly sql: string };
}

export interface TypedMapValue {
  readonly kind: 'typed';
  readonly type: CelScalarType;
  readonly sql: string;
}

export interface MapField {
  readonly kind: 'map';
  readonly rows: RelatedRows;
  /** SQL of the (string) key over the placeholders. */
  readonly key: string;
  readonly value: DynMapValue | TypedMapValue;
}

/**
 * A bool pseudo-field that widens the scope instead of filtering rows. It may
 * only appear as a top-level conjunct (`include_archived`, `include_archived == true`);
 * unless the filter sets it true, `unlessTrue` is ANDed into the compiled SQL.
 */
export interface DirectiveField {
  readonly kind: 'directive';
  readonly unlessTrue: string;
}

export type FilterField = ScalarField | EnumField | RelationField | MessagesField | MapField | DirectiveField;
export type FilterFields = Readonly<Record<string, FilterField>>;
