import { describe, expect, it } from 'vitest';
import { locate } from './cedarText';
import { lineDiff } from './changeMessage';

describe('lineDiff', () => {
  it('counts added and removed lines around a common head and tail', () => {
    expect(lineDiff('a\nb\nc', 'a\nb\nc')).toEqual({ added: 0, removed: 0 });
    expect(lineDiff('a\nb\nc', 'a\nx\nc')).toEqual({ added: 1, removed: 1 });
    expect(lineDiff('a\nc', 'a\nb1\nb2\nc\nd')).toEqual({ added: 3, removed: 0 });
    expect(lineDiff('a\nb\nc\nd', 'b\nd')).toEqual({ added: 0, removed: 2 });
    expect(lineDiff('', 'a\nb\n')).toEqual({ added: 2, removed: 0 });
    expect(lineDiff('a\r\nb', 'a\nb')).toEqual({ added: 0, removed: 0 });
  });

  it('finds moved lines as one removal and one addition', () => {
    expect(lineDiff('x\na\nb\nc\ny', 'x\nb\nc\na\ny')).toEqual({ added: 1, removed: 1 });
  });
});

describe('locate', () => {
  it('turns Cedar byte offsets into 1-based line and character column', () => {
    const text = 'ab\nçé x';
    expect(locate(text, 0)).toEqual({ line: 1, column: 1, offset: 0 });
    expect(locate(text, 3)).toEqual({ line: 2, column: 1, offset: 3 });
    // ç and é are two bytes each: byte 8 is the x.
    expect(locate(text, Buffer.byteLength('ab\nçé '))).toEqual({ line: 2, column: 4, offset: 8 });
  });
});
