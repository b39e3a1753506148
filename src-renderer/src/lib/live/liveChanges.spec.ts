import { describe, expect, test } from 'vitest';
import type { Change } from '../../../../src-shared/api/changes';
import { LiveChanges, names } from './liveChanges';

const change = (resource: string, ids: string[] | 'many' = ['x']): Change => ({ resource, ids, reason: 'write' });

describe('LiveChanges', () => {
  test('calls a view’s refresh for its resources and gaps only, one at a time, once more for changes during a run', async () => {
    let push: (changes: readonly Change[]) => void = () => {};
    const live = new LiveChanges((listener) => {
      push = listener;
      return () => {};
    });
    live.start();
    const calls: (readonly Change[])[] = [];
    let finish: () => void = () => {};
    const off = live.on(['policies'], (changes) => {
      calls.push(changes);
      return new Promise<void>((r) => (finish = r));
    });
    push([change('annotations')]);
    expect(calls).toHaveLength(0);
    push([change('policies', ['p1'])]);
    push([change('policies', ['p2']), change('*', 'many')]);
    expect(calls).toHaveLength(1);
    finish();
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toHaveLength(2);
    expect(calls[1].map((c) => c.resource)).toEqual(['policies', '*']);
    finish();
    off();
    push([change('policies')]);
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toHaveLength(2);
  });

  test('names: a record is named by its id, by many, never by others', () => {
    expect(names([change('a', ['1'])], '1')).toBe(true);
    expect(names([change('a', ['2'])], '1')).toBe(false);
    expect(names([change('a', 'many')], '1')).toBe(true);
    expect(names([change('a', 'many')], undefined)).toBe(false);
  });
});
