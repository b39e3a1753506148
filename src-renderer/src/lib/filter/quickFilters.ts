// Quick filters (state, assigned to me, asset, tag, time range) as CEL: each
// chip writes one clause of the filter's top-level `&&`, and reading a filter
// back finds those clauses again, so typed filters and saved searches restore
// their chips. Whatever a chip does not own stays as typed ("rest").
import type { ReviewState } from '../services/annotationService';

export interface QuickFilters {
  /** Any of these states (none: any state). */
  readonly states: readonly ReviewState[];
  /** Assigned to this user name (the "assigned to me" chip writes the local user's). */
  readonly assignee?: string;
  readonly asset?: string;
  readonly tag?: string;
  /** start_time at or after (RFC 3339). */
  readonly from?: string;
  /** start_time before (RFC 3339). */
  readonly to?: string;
}

export const NO_QUICK_FILTERS: QuickFilters = { states: [] };

const STATE_VALUES = ['ANNOTATION_STATE_OPEN', 'ANNOTATION_STATE_FLAGGED', 'ANNOTATION_STATE_RESOLVED'] as const;

/** A CEL string literal. */
export function celString(value: string): string {
  return JSON.stringify(value);
}

/** Splits `text` at its top-level `&&` (outside strings, parentheses and brackets); undefined when a top-level `||` makes that unsafe. */
export function topLevelClauses(text: string): string[] | undefined {
  const clauses: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (depth === 0 && c === '|' && text[i + 1] === '|') return undefined;
    else if (depth === 0 && c === '&' && text[i + 1] === '&') {
      clauses.push(text.slice(start, i).trim());
      start = i + 2;
      i++;
    }
  }
  clauses.push(text.slice(start).trim());
  return clauses.filter(Boolean);
}

const STR = String.raw`"((?:[^"\\]|\\.)*)"`;
const PATTERNS = {
  state: /^state\s*==\s*(ANNOTATION_STATE_[A-Z]+)$/,
  states: /^state\s+in\s*\[([A-Z_,\s]+)\]$/,
  assignee: new RegExp(`^assignee\\s*==\\s*${STR}$`),
  asset: new RegExp(`^asset_name\\s*==\\s*${STR}$`),
  tag: new RegExp(`^tag_name\\s*==\\s*${STR}$`),
  from: new RegExp(`^start_time\\s*>=\\s*timestamp\\(${STR}\\)$`),
  to: new RegExp(`^start_time\\s*<\\s*timestamp\\(${STR}\\)$`),
};

const unquote = (s: string) => JSON.parse(`"${s}"`) as string;
const isState = (s: string): s is ReviewState => (STATE_VALUES as readonly string[]).includes(s);

/** The quick filters a filter holds, and the rest of it (clauses no chip owns, joined with &&). */
export function readQuickFilters(text: string): { quick: QuickFilters; rest: string } {
  const clauses = topLevelClauses(text.trim());
  if (!clauses) return { quick: NO_QUICK_FILTERS, rest: text.trim() };
  let quick: { -readonly [K in keyof QuickFilters]: QuickFilters[K] } = { states: [] };
  const rest: string[] = [];
  for (const clause of clauses) {
    let m: RegExpExecArray | null;
    if (!quick.states.length && (m = PATTERNS.state.exec(clause)) && isState(m[1])) quick.states = [m[1]];
    else if (
      !quick.states.length &&
      (m = PATTERNS.states.exec(clause)) &&
      m[1]
        .split(',')
        .map((s) => s.trim())
        .every(isState)
    ) {
      quick.states = m[1].split(',').map((s) => s.trim()) as ReviewState[];
    } else if (quick.assignee === undefined && (m = PATTERNS.assignee.exec(clause))) quick.assignee = unquote(m[1]);
    else if (quick.asset === undefined && (m = PATTERNS.asset.exec(clause))) quick.asset = unquote(m[1]);
    else if (quick.tag === undefined && (m = PATTERNS.tag.exec(clause))) quick.tag = unquote(m[1]);
    else if (quick.from === undefined && (m = PATTERNS.from.exec(clause))) quick.from = unquote(m[1]);
    else if (quick.to === undefined && (m = PATTERNS.to.exec(clause))) quick.to = unquote(m[1]);
    else rest.push(clause);
  }
  quick = { ...quick };
  return { quick, rest: rest.join(' && ') };
}

/** The filter with `quick`'s clauses after `rest` (wrapped when it has a top-level ||). */
export function writeQuickFilters(quick: QuickFilters, rest = ''): string {
  const clauses: string[] = [];
  const r = rest.trim();
  if (r) clauses.push(topLevelClauses(r) ? r : `(${r})`);
  if (quick.states.length === 1) clauses.push(`state == ${quick.states[0]}`);
  else if (quick.states.length > 1) clauses.push(`state in [${quick.states.join(', ')}]`);
  if (quick.assignee !== undefined) clauses.push(`assignee == ${celString(quick.assignee)}`);
  if (quick.asset !== undefined) clauses.push(`asset_name == ${celString(quick.asset)}`);
  if (quick.tag !== undefined) clauses.push(`tag_name == ${celString(quick.tag)}`);
  if (quick.from !== undefined) clauses.push(`start_time >= timestamp(${celString(quick.from)})`);
  if (quick.to !== undefined) clauses.push(`start_time < timestamp(${celString(quick.to)})`);
  return clauses.join(' && ');
}

/** Time range presets (Grafana-style "last …"), written as absolute times so a saved search means what it showed. */
export const TIME_RANGES = [
  { id: '1h', label: 'Last hour', ms: 3_600_000 },
  { id: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { id: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { id: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
] as const;

export function rangeStart(ms: number, now = Date.now()): string {
  return new Date(now - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
