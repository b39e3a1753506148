// ListArtifacts' archive rule: archived artifacts are left out unless the
// filter says `include_archived == true` (or plain `include_archived`), or
// filters on archived_date / is_archived, which then decide archival alone.
//
// For now the rule reads the identifiers the filter text references (string
// literals skipped, member selections like `l.archived_date` ignored). Once the
// filter engine exposes its checked AST, archivedClause should be switched to
// it; callers only depend on the signature.

export const EXCLUDE_ARCHIVED_SQL = 't.archived_date IS NULL';

/** Fields whose presence in a filter means the filter itself governs archival. */
const ARCHIVE_FIELDS = new Set(['archived_date', 'is_archived']);

interface Token {
  readonly kind: 'ident' | 'op' | 'literal';
  readonly text: string;
}

const STRING = /^(?:[rRbB]{0,2})(?:'''[\s\S]*?'''|"""[\s\S]*?"""|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")/;

/** A small CEL lexer: enough to find identifiers and the operators around them. */
export function celTokens(filter: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < filter.length) {
    const rest = filter.slice(i);
    const ws = /^\s+/.exec(rest);
    if (ws) {
      i += ws[0].length;
      continue;
    }
    const str = STRING.exec(rest);
    if (str && (/^['"]/.test(rest) || /^[rRbB]{1,2}['"]/.test(rest))) {
      out.push({ kind: 'literal', text: str[0] });
      i += str[0].length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (ident) {
      out.push({ kind: 'ident', text: ident[0] });
      i += ident[0].length;
      continue;
    }
    const num = /^(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)[uU]?/.exec(rest);
    if (num) {
      out.push({ kind: 'literal', text: num[0] });
      i += num[0].length;
      continue;
    }
    const op = /^(?:==|!=|<=|>=|&&|\|\||.)/.exec(rest)!;
    out.push({ kind: 'op', text: op[0] });
    i += op[0].length;
  }
  return out;
}

/** Top-level identifiers (not `x.field` selections, not function names being called as members). */
function referencedIdentifiers(tokens: readonly Token[]): { name: string; index: number }[] {
  return tokens
    .map((t, index) => ({ t, index }))
    .filter(({ t, index }) => t.kind === 'ident' && tokens[index - 1]?.text !== '.')
    .map(({ t, index }) => ({ name: t.text, index }));
}

/** Whether the filter turns the include_archived directive on. */
function includesArchived(tokens: readonly Token[], index: number): boolean {
  const prev = tokens[index - 1]?.text;
  const next = tokens[index + 1]?.text;
  const after = tokens[index + 2]?.text;
  if (next === '==' ) return after === 'true';
  if (next === '!=') return after === 'false';
  if (prev === '==') return tokens[index - 2]?.text === 'true';
  if (prev === '!=') return tokens[index - 2]?.text === 'false';
  // Bare `include_archived` as a conjunct means true; `!include_archived` means false.
  return prev !== '!';
}

/** SQL over `t` to AND into the list scope: '1' (no implicit rule) or the archived exclusion. */
export function archivedClause(filter: string | undefined): string {
  if (!filter || filter.trim() === '') return EXCLUDE_ARCHIVED_SQL;
  const tokens = celTokens(filter);
  const idents = referencedIdentifiers(tokens);
  if (idents.some((i) => ARCHIVE_FIELDS.has(i.name))) return '1';
  if (idents.some((i) => i.name === 'include_archived' && includesArchived(tokens, i.index))) return '1';
  return EXCLUDE_ARCHIVED_SQL;
}
