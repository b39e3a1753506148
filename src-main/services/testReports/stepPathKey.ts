// step_path ("1.2.10") -> a key whose plain (binary) text order is the natural
// order of paths: numeric segments are length-prefixed, so "1.9" < "1.10", and
// a parent sorts right before its children ("1" < "1.1" < "1.1.1" < "1.2").
// Non-numeric segments sort after numeric ones, by their text.

const SEPARATOR = '\u0001'; // below every printable character: a prefix path sorts first

export function stepPathKey(path: string): string {
  return path
    .split('.')
    .map((segment) => {
      if (/^\d+$/.test(segment)) {
        const digits = segment.replace(/^0+(?=\d)/, '');
        return `N${String(digits.length).padStart(3, '0')}${digits}`;
      }
      return `S${segment}`;
    })
    .join(SEPARATOR);
}

/** A step path is dot-separated, non-empty segments ("1", "1.2.3"). */
export function isValidStepPath(path: string): boolean {
  return path.length > 0 && path.split('.').every((s) => s.trim().length > 0);
}
