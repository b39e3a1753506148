import { describe, expect, it } from 'vitest';
import { locate } from './cedarText';
import { changeMessage } from './changeMessage';

describe('locate', () => {
  it('turns Cedar byte offsets into 1-based line and character column', () => {
    const text = 'ab\nçé x';
    expect(locate(text, 0)).toEqual({ line: 1, column: 1, offset: 0 });
    expect(locate(text, 3)).toEqual({ line: 2, column: 1, offset: 3 });
    // ç and é are two bytes each: byte 8 is the x.
    expect(locate(text, Buffer.byteLength('ab\nçé '))).toEqual({ line: 2, column: 4, offset: 8 });
  });
});

describe('changeMessage', () => {
  it('ends with the line diff summary of the configuration', () => {
    const message = changeMessage(['configuration'], {
      beforeText: 'permit(principal, action, resource);',
      afterText: 'permit(principal, action, resource);\nforbid(principal, action, resource);',
      beforePolicies: ['permit(principal, action, resource);'],
      afterPolicies: ['permit(principal, action, resource);', 'forbid(principal, action, resource);'],
    });
    expect(message).toMatch(/; \+1 −0 lines$/);
  });
});
