import { describe, expect, test } from 'vitest';
import { HOLD_MS, KeyHold } from './keyHold';
import { CHANGES_DATA, OPENS_INPUT } from './shortcuts';

const key = (k: string) => ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false });

describe('KeyHold', () => {
  test('keeps keys from start until release, in order, once', () => {
    const hold = new KeyHold();
    expect(hold.active).toBe(false);
    hold.start();
    expect(hold.active).toBe(true);
    hold.keep(key('i'));
    hold.keep(key('t'));
    expect(hold.release().map((k) => k.key)).toEqual(['i', 't']);
    expect(hold.active).toBe(false);
    expect(hold.release()).toEqual([]);
  });

  test('a field that never opens: after HOLD_MS the hold ends and its keys are dropped', () => {
    let now = 0;
    const hold = new KeyHold(() => now);
    hold.start();
    hold.keep(key('e'));
    now = HOLD_MS + 1;
    expect(hold.active).toBe(false);
    expect(hold.release()).toEqual([]);
  });

  test('started again while keeping: the keys kept so far stay (one input is opening); after it ended, a new start keeps none', () => {
    let now = 0;
    const hold = new KeyHold(() => now);
    hold.start();
    hold.keep(key('F'));
    now = HOLD_MS - 1;
    hold.start();
    hold.keep(key('r'));
    now += HOLD_MS - 1; // counted from the second start
    expect(hold.release().map((k) => k.key)).toEqual(['F', 'r']);
    hold.start();
    hold.keep(key('x'));
    now += HOLD_MS + 1;
    hold.start();
    expect(hold.release()).toEqual([]);
  });

  test('no command both opens a field and changes data', () => {
    expect([...OPENS_INPUT].filter((c) => CHANGES_DATA.has(c))).toEqual([]);
  });
});
