import { describe, expect, test } from 'vitest';
import { SEQUENCE_MS, SHORTCUTS, ShortcutReader } from './shortcuts';

describe('shortcut map', () => {
  test('no two shortcuts share keys', () => {
    const keys = SHORTCUTS.map((s) => s.keys.join(' '));
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('single keys map to their commands', () => {
    const r = new ShortcutReader();
    expect(r.read({ key: 'j' })).toBe('next');
    expect(r.read({ key: 'ArrowDown' })).toBe('next');
    expect(r.read({ key: 'k' })).toBe('previous');
    expect(r.read({ key: 'x' })).toBe('toggle-select');
    expect(r.read({ key: 's' })).toBe('cycle-state');
    expect(r.read({ key: 'e' })).toBe('archive');
    expect(r.read({ key: '?', shiftKey: true })).toBe('help');
    expect(r.read({ key: '/' })).toBe('focus-filter');
    expect(r.read({ key: 'Escape' })).toBe('back');
    expect(r.read({ key: 'Enter' })).toBe('open');
    expect(r.read({ key: 'q' })).toBeUndefined();
  });

  test('Shift+j/k extend (the event carries the capital letter)', () => {
    const r = new ShortcutReader();
    expect(r.read({ key: 'J', shiftKey: true })).toBe('extend-next');
    expect(r.read({ key: 'K', shiftKey: true })).toBe('extend-previous');
  });

  test('g then a letter goes to a view; a lone g waits', () => {
    const r = new ShortcutReader();
    expect(r.read({ key: 'g' })).toBe('pending');
    expect(r.read({ key: 'p' })).toBe('go-policies');
    expect(r.read({ key: 'g' })).toBe('pending');
    expect(r.read({ key: 'a' })).toBe('go-annotations');
    // After a sequence, `a` alone is assign again.
    expect(r.read({ key: 'a' })).toBe('assign');
  });

  test('a sequence expires; the late key then counts alone', () => {
    let now = 1000;
    const r = new ShortcutReader(() => now);
    expect(r.read({ key: 'g' })).toBe('pending');
    now += SEQUENCE_MS + 1;
    expect(r.read({ key: 'a' })).toBe('assign');
  });

  test('keys typed into a field are not commands, except Esc', () => {
    const r = new ShortcutReader();
    expect(r.read({ key: 'j', inField: true })).toBeUndefined();
    expect(r.read({ key: 'g', inField: true })).toBeUndefined();
    expect(r.read({ key: 'a' })).toBe('assign');
    expect(r.read({ key: 'Escape', inField: true })).toBe('back');
  });

  test('modifiers: Ctrl/Cmd+a selects all, Alt is never a shortcut, Ctrl+j is not j', () => {
    const r = new ShortcutReader();
    expect(r.read({ key: 'a', ctrlKey: true })).toBe('select-all');
    expect(r.read({ key: 'a', metaKey: true })).toBe('select-all');
    expect(r.read({ key: 'j', altKey: true })).toBeUndefined();
    expect(r.read({ key: 'j', ctrlKey: true })).toBeUndefined();
  });
});
