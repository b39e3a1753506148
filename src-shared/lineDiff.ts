// A line diff of two texts (jsdiff's Myers diff): the lines of a policy version
// diff in the renderer, and the +added −removed summary of a new version's
// generated change message in the engine. CRLF and LF read the same, and a
// missing final newline is no change.
import { diffLines } from 'diff';

export interface DiffLine {
  readonly kind: 'same' | 'added' | 'removed';
  readonly text: string;
  /** 1-based line number in the earlier text (same and removed lines). */
  readonly before?: number;
  /** 1-based line number in the later text (same and added lines). */
  readonly after?: number;
}

/** Above this many differing lines the diff stops looking for common ones: every line of each side is changed. */
const MAX_EDIT_LENGTH = 500;

export const splitLines = (text: string): string[] => (text === '' ? [] : text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n'));

const asText = (lines: readonly string[]) => lines.map((l) => `${l}\n`).join('');

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const changes = diffLines(asText(a), asText(b), { maxEditLength: MAX_EDIT_LENGTH }) ?? [
    { value: asText(a), removed: true, added: false, count: a.length },
    { value: asText(b), removed: false, added: true, count: b.length },
  ];
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  for (const change of changes) {
    for (const text of splitLines(change.value)) {
      if (change.added) out.push({ kind: 'added', text, after: ++j });
      else if (change.removed) out.push({ kind: 'removed', text, before: ++i });
      else out.push({ kind: 'same', text, before: ++i, after: ++j });
    }
  }
  return out;
}

/** How many lines were added and removed. */
export function lineDiffCounts(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of lineDiff(before, after)) {
    if (line.kind === 'added') added++;
    else if (line.kind === 'removed') removed++;
  }
  return { added, removed };
}
