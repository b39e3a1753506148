// Fuzzy matching for the command palette: the query's characters must appear
// in the text in order (case-insensitive); runs of adjacent characters, word
// starts and an early first match score higher, so "arch" ranks "Archive"
// above "Search by chart" and "gs" finds "Go to Saved searches".

export interface FuzzyMatch {
  readonly score: number;
  /** Indices of the matched characters in the text (for highlighting). */
  readonly positions: readonly number[];
}

const isWordStart = (text: string, i: number) => i === 0 || /[\s\-_/.:(]/.test(text[i - 1]);

/** The best greedy match of `query` in `text`, or undefined when the characters are not all there in order. */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | undefined {
  const q = query.trim().toLowerCase();
  if (!q) return { score: 0, positions: [] };
  const t = text.toLowerCase();
  // Prefer starting at a word start that begins the query, else the first occurrence.
  const starts = [...t].flatMap((c, i) => (c === q[0] ? [i] : []));
  let best: FuzzyMatch | undefined;
  for (const start of starts) {
    const found = matchFrom(q, t, text, start);
    if (found && (!best || found.score > best.score)) best = found;
  }
  return best;
}

function matchFrom(q: string, t: string, text: string, start: number): FuzzyMatch | undefined {
  const positions: number[] = [];
  let score = 0;
  let at = start;
  for (const c of q) {
    // Prefer the next word start holding the character, else its next occurrence.
    let next = t.indexOf(c, at);
    if (next < 0) return undefined;
    if (positions.length && next !== positions[positions.length - 1] + 1) {
      for (let i = next; i < t.length; i++) {
        if (t[i] === c && isWordStart(text, i)) {
          next = i;
          break;
        }
      }
    }
    const previous = positions[positions.length - 1];
    score += 1;
    if (previous !== undefined && next === previous + 1) score += 3;
    if (isWordStart(text, next)) score += 2;
    positions.push(next);
    at = next + 1;
  }
  // An early first match and a short text rank higher.
  score -= positions[0] * 0.1 + t.length * 0.01;
  return { score, positions };
}

/** The items matching `query`, best first (ties keep their order). */
export function fuzzyFilter<T>(query: string, items: readonly T[], textOf: (item: T) => string): Array<{ item: T } & FuzzyMatch> {
  return items
    .flatMap((item, index) => {
      const m = fuzzyMatch(query, textOf(item));
      return m ? [{ item, index, ...m }] : [];
    })
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ item, score, positions }) => ({ item, score, positions }));
}
