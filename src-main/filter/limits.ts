// Limits that keep a hostile or runaway filter from costing more than a page
// of results should. Each bound is far above what real filters use (the
// longest filters in practice are `annotation_id in [...]` selections of a
// few hundred UUIDs, about 40 characters each) and well below what would
// make parsing, type-checking or the SQL itself expensive. Exceeding one is
// INVALID_ARGUMENT naming the limit.

/** Characters in the filter string (checked before parsing): 500 quoted UUIDs plus structure. */
export const MAX_FILTER_LENGTH = 24_000;

/** Parsed AST nodes (cel-js `maxAstNodes`): every literal, field, operator and call is one node. */
export const MAX_AST_NODES = 2_000;

/** Nesting of calls, member selections, indexes, parentheses and aggregates (cel-js `maxDepth`). */
export const MAX_NESTING_DEPTH = 32;

/** Elements of one list literal (cel-js `maxListElements`); each becomes one SQL parameter. */
export const MAX_LIST_ELEMENTS = 500;

/** Entries of one map literal (cel-js `maxMapEntries`); maps only appear in constant sub-expressions. */
export const MAX_MAP_ENTRIES = 50;

/** Arguments of one call (cel-js `maxCallArguments`); no supported function takes more than 3. */
export const MAX_CALL_ARGUMENTS = 8;

/**
 * SQL parameters of the compiled filter. Comprehensions over list literals are
 * unrolled, so this bounds the product of nested list sizes; SQLite allows 32766.
 */
export const MAX_SQL_PARAMS = 5_000;

/** Characters of one regular expression given to `matches`. */
export const MAX_REGEX_LENGTH = 1_000;

/** RE2 program size (instructions) of one compiled regular expression. */
export const MAX_REGEX_PROGRAM_SIZE = 5_000;

/**
 * Characters of the compiled SQL. Both polarities of every condition are
 * compiled (see celToSql.ts), so pathological nesting (ternaries in
 * conditions, nested exists_one) could grow the SQL exponentially; this stops
 * it early.
 */
export const MAX_SQL_LENGTH = 400_000;
