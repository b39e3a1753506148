import { describe, expect, it } from 'vitest';
import { lineDiff, lineDiffCounts } from './lineDiff';

describe('lineDiffCounts', () => {
  it('counts added and removed lines around a common head and tail', () => {
    expect(lineDiffCounts('a\nb\nc', 'a\nb\nc')).toEqual({ added: 0, removed: 0 });
    expect(lineDiffCounts('a\nb\nc', 'a\nx\nc')).toEqual({ added: 1, removed: 1 });
    expect(lineDiffCounts('a\nc', 'a\nb1\nb2\nc\nd')).toEqual({ added: 3, removed: 0 });
    expect(lineDiffCounts('a\nb\nc\nd', 'b\nd')).toEqual({ added: 0, removed: 2 });
    expect(lineDiffCounts('', 'a\nb\n')).toEqual({ added: 2, removed: 0 });
    expect(lineDiffCounts('a\r\nb', 'a\nb')).toEqual({ added: 0, removed: 0 });
    expect(lineDiffCounts('a\nb', 'a\nb\n')).toEqual({ added: 0, removed: 0 });
  });

  it('finds moved lines as one removal and one addition', () => {
    expect(lineDiffCounts('x\na\nb\nc\ny', 'x\nb\nc\na\ny')).toEqual({ added: 1, removed: 1 });
  });

  it('gives up looking for common lines past its limit: every line of each side is changed', () => {
    const a = Array.from({ length: 600 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 600 }, (_, i) => `b${i}`).join('\n');
    expect(lineDiffCounts(a, b)).toEqual({ added: 600, removed: 600 });
  });
});

describe('lineDiff', () => {
  it('lists every line once, numbered on the side(s) it is on, empty lines included', () => {
    const before = 'permit(principal, action, resource);\n\n// old\nforbid(principal, action, resource);\n';
    const after = 'permit(principal, action, resource);\n\nforbid(principal, action, resource)\nwhen { true };\n';
    expect(lineDiff(before, after)).toEqual([
      { kind: 'same', text: 'permit(principal, action, resource);', before: 1, after: 1 },
      { kind: 'same', text: '', before: 2, after: 2 },
      { kind: 'removed', text: '// old', before: 3 },
      { kind: 'removed', text: 'forbid(principal, action, resource);', before: 4 },
      { kind: 'added', text: 'forbid(principal, action, resource)', after: 3 },
      { kind: 'added', text: 'when { true };', after: 4 },
    ]);
  });

  it('of a text with itself: every line the same', () => {
    expect(lineDiff('a\nb', 'a\nb').map((l) => l.kind)).toEqual(['same', 'same']);
    expect(lineDiff('', '')).toEqual([]);
  });
});
