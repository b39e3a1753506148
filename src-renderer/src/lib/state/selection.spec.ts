import { describe, expect, test } from 'vitest';
import { SelectionModel } from './selection.svelte';

const KEYS = ['a', 'b', 'c', 'd', 'e'];

describe('SelectionModel', () => {
  test('move starts at the first row and stops at the ends', () => {
    const s = new SelectionModel();
    expect(s.move(KEYS, 1)).toBe('a');
    expect(s.move(KEYS, 1)).toBe('b');
    expect(s.move(KEYS, -5)).toBe('a');
    expect(s.move(KEYS, 99)).toBe('e');
    expect(s.move([], 1)).toBeUndefined();
  });

  test('targets: the selection in list order, else the cursor row', () => {
    const s = new SelectionModel();
    expect(s.targets(KEYS)).toEqual([]);
    s.focus('c');
    expect(s.targets(KEYS)).toEqual(['c']);
    s.toggle('d');
    s.toggle('a');
    expect(s.targets(KEYS)).toEqual(['a', 'd']);
    expect(s.count).toBe(2);
    s.toggle('a');
    expect(s.targets(KEYS)).toEqual(['d']);
  });

  test('extend selects from the anchor to the cursor, both ways, and shrinks back', () => {
    const s = new SelectionModel();
    s.focus('b');
    s.extend(KEYS, 1);
    expect([...s.selected].sort()).toEqual(['b', 'c']);
    s.extend(KEYS, 1);
    expect([...s.selected].sort()).toEqual(['b', 'c', 'd']);
    expect(s.cursor).toBe('d');
    s.extend(KEYS, -1);
    expect([...s.selected].sort()).toEqual(['b', 'c']);
    s.extend(KEYS, -1);
    s.extend(KEYS, -1);
    expect([...s.selected].sort()).toEqual(['a', 'b']);
    expect(s.cursor).toBe('a');
  });

  test('extend keeps rows picked with x elsewhere', () => {
    const s = new SelectionModel();
    s.focus('e');
    s.toggle('e');
    s.focus('a');
    s.extend(KEYS, 1);
    expect([...s.selected].sort()).toEqual(['a', 'b', 'e']);
  });

  test('retain drops keys no longer listed; clear and selectAll', () => {
    const s = new SelectionModel();
    s.selectAll(KEYS);
    s.focus('e');
    const listed = new Set(['a', 'b']);
    s.retain((k) => listed.has(k));
    expect([...s.selected]).toEqual(['a', 'b']);
    expect(s.cursor).toBeUndefined();
    s.clear();
    expect(s.count).toBe(0);
  });

  test('all matching selects past the loaded rows until the selection changes otherwise', () => {
    const s = new SelectionModel();
    s.selectAllMatching(['a', 'b']);
    expect(s.allMatching).toBe(true);
    expect(s.isSelected('e')).toBe(true);
    expect(s.count).toBe(2);
    s.toggle('a');
    expect(s.allMatching).toBe(false);
    expect(s.isSelected('e')).toBe(false);
    for (const narrow of [() => s.clear(), () => s.selectAll(KEYS), () => (s.focus('a'), s.extend(KEYS, 1))]) {
      s.selectAllMatching(KEYS);
      narrow();
      expect(s.allMatching).toBe(false);
    }
  });
});
