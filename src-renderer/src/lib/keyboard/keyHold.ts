// Keys typed while an input is opening: a shortcut that opens a field (`c`,
// `t`, `a`, `n`, `/`) starts a hold, and every key that arrives before a text
// field takes the focus is kept for that field instead of being read as a
// shortcut (a fast "Written with no network" after `c` must not assign with
// `i` or tag with `t`). When a field takes the focus the kept keys are typed
// into it; when none does within HOLD_MS they are dropped (nothing changes).

/** How long an opening input may take before the keys kept for it are dropped. */
export const HOLD_MS = 2000;

/** A key as kept: its name and the modifiers that change what it does in a field. */
export interface HeldKey {
  readonly key: string;
  readonly shiftKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
}

export class KeyHold {
  #since: number | undefined;
  #keys: HeldKey[] = [];
  readonly #now: () => number;

  constructor(now: () => number = () => Date.now()) {
    this.#now = now;
  }

  /**
   * Starts keeping keys (an input is opening). Already keeping them (the palette chose a command that opens an input,
   * and that command then presses its own key): the keys kept so far stay, for the same input.
   */
  start(): void {
    if (!this.active) this.#keys = [];
    this.#since = this.#now();
  }

  /** Whether keys are being kept now (an input opened less than HOLD_MS ago and has not taken the focus). */
  get active(): boolean {
    if (this.#since === undefined) return false;
    if (this.#now() - this.#since <= HOLD_MS) return true;
    this.cancel();
    return false;
  }

  /** Keeps a key for the opening input. */
  keep(key: HeldKey): void {
    this.#keys.push(key);
  }

  /** Ends the hold; returns the keys kept for the input that took the focus. */
  release(): HeldKey[] {
    const keys = this.#keys;
    this.cancel();
    return keys;
  }

  /** Ends the hold and drops what it kept. */
  cancel(): void {
    this.#since = undefined;
    this.#keys = [];
  }
}

/** Keys that leave or submit a field: what was typed after one of them is not for this field, and is dropped. */
const LEAVING = new Set(['Enter', 'Escape', 'Tab']);

/**
 * Types kept keys into the field that took the focus: characters and Backspace edit its value (with the
 * `input` event a bound value listens to); Enter, Escape and Tab go to it as key events (a picker chooses,
 * a form submits) and end the replay.
 */
export function typeInto(field: HTMLInputElement | HTMLTextAreaElement, keys: readonly HeldKey[]): void {
  for (const k of keys) {
    const plain = !k.ctrlKey && !k.metaKey && !k.altKey;
    if (plain && k.key.length === 1) {
      edit(field, k.key);
    } else if (plain && k.key === 'Backspace') {
      edit(field, '', true);
    } else {
      field.dispatchEvent(
        new KeyboardEvent('keydown', {
          key: k.key,
          shiftKey: k.shiftKey,
          ctrlKey: k.ctrlKey,
          metaKey: k.metaKey,
          bubbles: true,
          cancelable: true,
        }),
      );
      // A synthetic Esc does not close a native dialog: close it as the real key would have.
      if (k.key === 'Escape') field.closest('dialog')?.close();
      if (LEAVING.has(k.key)) return;
    }
  }
}

function edit(field: HTMLInputElement | HTMLTextAreaElement, text: string, backspace = false): void {
  let start = field.selectionStart ?? field.value.length;
  const end = field.selectionEnd ?? start;
  if (backspace && start === end) start = Math.max(0, start - 1);
  field.setRangeText(text, start, end, 'end');
  field.dispatchEvent(
    new InputEvent('input', { bubbles: true, inputType: backspace ? 'deleteContentBackward' : 'insertText', data: text || null }),
  );
}
