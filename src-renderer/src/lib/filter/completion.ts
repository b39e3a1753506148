// Completion in the CEL filter box: field names where a field can start,
// enum values after `state ==`, and names (tags, assets, people, runs)
// inside the string after a field that takes them. Pure: the box asks for
// the suggestions at the caret and applies the chosen one.

export type FieldKind = 'string' | 'timestamp' | 'bool' | 'enum' | 'list' | 'map';

export interface FilterField {
  readonly name: string;
  readonly kind: FieldKind;
  readonly values?: readonly string[];
  readonly help: string;
}

/** ListAnnotations' filter fields (as the engine declares them; tests/filter/annotationFilterFields.test.ts keeps them equal). */
export const ANNOTATION_FILTER_FIELDS: readonly FilterField[] = [
  { name: 'annotation_id', kind: 'string', help: 'id' },
  { name: 'name', kind: 'string', help: 'text' },
  { name: 'description', kind: 'string', help: 'text' },
  { name: 'start_time', kind: 'timestamp', help: 'timestamp("…Z")' },
  { name: 'end_time', kind: 'timestamp', help: 'timestamp("…Z")' },
  { name: 'created_date', kind: 'timestamp', help: 'timestamp("…Z")' },
  { name: 'modified_date', kind: 'timestamp', help: 'timestamp("…Z")' },
  { name: 'run_id', kind: 'string', help: 'run id' },
  { name: 'created_by_user_id', kind: 'string', help: 'user id' },
  { name: 'created_by_rule_condition_version_id', kind: 'string', help: 'rule condition version id' },
  {
    name: 'state',
    kind: 'enum',
    values: ['ANNOTATION_STATE_OPEN', 'ANNOTATION_STATE_FLAGGED', 'ANNOTATION_STATE_RESOLVED', 'ANNOTATION_STATE_UNSPECIFIED'],
    help: 'review state',
  },
  {
    name: 'annotation_type',
    kind: 'enum',
    values: ['ANNOTATION_TYPE_DATA_REVIEW', 'ANNOTATION_TYPE_PHASE', 'ANNOTATION_TYPE_UNSPECIFIED'],
    help: 'type',
  },
  { name: 'pending', kind: 'bool', help: 'true/false' },
  { name: 'archived_date', kind: 'timestamp', help: 'timestamp("…Z")' },
  { name: 'is_archived', kind: 'bool', help: 'true/false' },
  { name: 'tag_name', kind: 'list', help: 'a tag' },
  { name: 'asset_id', kind: 'list', help: 'an asset id' },
  { name: 'asset_name', kind: 'list', help: 'an asset name' },
  { name: 'assignee', kind: 'list', help: 'user id or name' },
  { name: 'metadata', kind: 'map', help: 'metadata["key"]' },
  { name: 'rule_id', kind: 'list', help: 'rule id' },
  { name: 'report_id', kind: 'list', help: 'report id' },
  { name: 'campaign_reports', kind: 'list', help: 'report id' },
];

/** Names the box can offer inside strings: value inserted, label shown. */
export interface Vocabulary {
  readonly tags: readonly string[];
  readonly assets: ReadonlyMap<string, string>;
  readonly users: readonly string[];
  readonly runs: ReadonlyMap<string, string>;
}

export interface Suggestion {
  readonly label: string;
  readonly insert: string;
  readonly detail: string;
}

export interface Completion {
  /** The text the suggestion replaces: [from, to). */
  readonly from: number;
  readonly to: number;
  readonly items: readonly Suggestion[];
}

const MAX = 8;
const NONE: Completion = { from: 0, to: 0, items: [] };

function stringValues(field: string, v: Vocabulary): Suggestion[] {
  switch (field) {
    case 'tag_name':
      return v.tags.map((t) => ({ label: t, insert: t, detail: 'tag' }));
    case 'asset_name':
      return [...new Set(v.assets.values())].map((n) => ({ label: n, insert: n, detail: 'asset' }));
    case 'asset_id':
      return [...v.assets].map(([id, n]) => ({ label: n, insert: id, detail: 'asset id' }));
    case 'assignee':
      return v.users.map((u) => ({ label: u, insert: u, detail: 'user' }));
    case 'run_id':
      return [...v.runs].map(([id, n]) => ({ label: n, insert: id, detail: 'run id' }));
    default:
      return [];
  }
}

/** Whether `caret` is inside a string literal; the index of its opening quote if so. */
function openQuote(text: string, caret: number): number | undefined {
  let quote: string | undefined;
  let at = -1;
  for (let i = 0; i < caret; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
      at = i;
    }
  }
  return quote ? at : undefined;
}

const match = (label: string, prefix: string) => label.toLowerCase().includes(prefix.toLowerCase());

export function completionsAt(
  text: string,
  caret: number,
  vocabulary: Vocabulary,
  fields: readonly FilterField[] = ANNOTATION_FILTER_FIELDS,
): Completion {
  const quoteAt = openQuote(text, caret);
  if (quoteAt !== undefined) {
    const field =
      /([a-z_]+)\s*(?:==|!=)\s*$/.exec(text.slice(0, quoteAt))?.[1] ?? /([a-z_]+)\s+in\s*\[[^\]]*$/.exec(text.slice(0, quoteAt))?.[1];
    if (!field) return NONE;
    const prefix = text.slice(quoteAt + 1, caret);
    const closes = text[caret] === text[quoteAt] ? 1 : 0;
    const items = stringValues(field, vocabulary)
      .filter((s) => match(s.label, prefix))
      .slice(0, MAX)
      .map((s) => ({ ...s, insert: `${JSON.stringify(s.insert).slice(1, -1)}${text[quoteAt]}` }));
    return { from: quoteAt + 1, to: caret + closes, items };
  }
  const word = /[A-Za-z_][A-Za-z0-9_]*$/.exec(text.slice(0, caret))?.[0] ?? '';
  const from = caret - word.length;
  const before = text.slice(0, from);
  const enumField = /([a-z_]+)\s*(?:==|!=)\s*$/.exec(before)?.[1] ?? /([a-z_]+)\s+in\s*\[[^\]]*$/.exec(before)?.[1];
  const field = enumField ? fields.find((f) => f.name === enumField) : undefined;
  if (field?.values) {
    const items = field.values
      .filter((v) => match(v, word))
      .slice(0, MAX)
      .map((v) => ({ label: v, insert: v, detail: field.name }));
    return { from, to: caret, items };
  }
  if (field?.kind === 'bool')
    return {
      from,
      to: caret,
      items: ['true', 'false'].filter((v) => v.startsWith(word)).map((v) => ({ label: v, insert: v, detail: 'bool' })),
    };
  // A field can start here: at the beginning, or after an operator that joins conditions.
  if (!word || !/(^|&&|\|\||\(|!|\[|,)\s*$/.test(before)) return { from, to: caret, items: [] };
  // The best match first: of the fields the word starts, the shortest name (`st` -> `state` before `start_time`),
  // then alphabetical; Tab inserts the first.
  const items = fields
    .filter((f) => f.name.startsWith(word.toLowerCase()) && f.name !== word)
    .sort((a, b) => a.name.length - b.name.length || a.name.localeCompare(b.name))
    .slice(0, MAX)
    .map((f) => ({ label: f.name, insert: f.name, detail: f.help }));
  return { from, to: caret, items };
}

/** The text and caret after choosing `item`. */
export function applySuggestion(text: string, completion: Completion, item: Suggestion): { text: string; caret: number } {
  const next = text.slice(0, completion.from) + item.insert + text.slice(completion.to);
  return { text: next, caret: completion.from + item.insert.length };
}
