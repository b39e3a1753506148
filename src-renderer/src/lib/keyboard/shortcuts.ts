// The keyboard map: every shortcut the app answers, in one table that both
// the `?` help and the key reader use, so the help can never drift from what
// the keys do. A reader turns key events into commands, following two-key
// sequences (`g a`) and ignoring keys typed into text fields.

export type Command =
  | 'help'
  | 'palette'
  | 'next'
  | 'previous'
  | 'open'
  | 'back'
  | 'focus-filter'
  | 'toggle-select'
  | 'extend-next'
  | 'extend-previous'
  | 'cycle-state'
  | 'assign'
  | 'assign-me'
  | 'comment'
  | 'edit'
  | 'tags'
  | 'archive'
  | 'undo'
  | 'select-all'
  | 'create'
  | 'go-annotations'
  | 'go-rules'
  | 'go-policies'
  | 'go-test-reports'
  | 'go-saved-searches'
  | 'go-artifacts'
  | 'go-sync';

export interface Shortcut {
  /** Keys as shown in the help, one entry per key of a sequence (`['g', 'a']`). */
  readonly keys: readonly string[];
  readonly command: Command;
  readonly label: string;
  readonly group: 'Anywhere' | 'List' | 'Review' | 'Go to';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['?'], command: 'help', label: 'Show these shortcuts', group: 'Anywhere' },
  { keys: ['Ctrl', 'k'], command: 'palette', label: 'Command palette: actions, views, saved searches, recent records', group: 'Anywhere' },
  { keys: ['/'], command: 'focus-filter', label: 'Focus the filter', group: 'Anywhere' },
  { keys: ['Esc'], command: 'back', label: 'Back to the list (leave a field, close a dialog)', group: 'Anywhere' },
  { keys: ['j'], command: 'next', label: 'Next row', group: 'List' },
  { keys: ['k'], command: 'previous', label: 'Previous row', group: 'List' },
  { keys: ['↓'], command: 'next', label: 'Next row', group: 'List' },
  { keys: ['↑'], command: 'previous', label: 'Previous row', group: 'List' },
  { keys: ['Enter'], command: 'open', label: 'Open the row (focus its detail)', group: 'List' },
  { keys: ['x'], command: 'toggle-select', label: 'Select / deselect the row', group: 'List' },
  { keys: ['Shift', 'j'], command: 'extend-next', label: 'Extend the selection down', group: 'List' },
  { keys: ['Shift', 'k'], command: 'extend-previous', label: 'Extend the selection up', group: 'List' },
  { keys: ['Ctrl', 'a'], command: 'select-all', label: 'Select every loaded row (again: every matching one)', group: 'List' },
  { keys: ['s'], command: 'cycle-state', label: 'Cycle state: open → flagged → resolved', group: 'Review' },
  { keys: ['a'], command: 'assign', label: 'Assign (type a name)', group: 'Review' },
  { keys: ['i'], command: 'assign-me', label: 'Assign to me', group: 'Review' },
  { keys: ['c'], command: 'comment', label: 'Comment (Ctrl/Cmd+Enter sends)', group: 'Review' },
  { keys: ['t'], command: 'tags', label: 'Add tags', group: 'Review' },
  { keys: ['r'], command: 'edit', label: 'Edit name, description, times, metadata (Ctrl/Cmd+Enter saves)', group: 'Review' },
  { keys: ['e'], command: 'archive', label: 'Archive / unarchive', group: 'Review' },
  { keys: ['n'], command: 'create', label: 'New annotation (Ctrl/Cmd+Enter creates)', group: 'Review' },
  { keys: ['z'], command: 'undo', label: 'Undo the last batch action', group: 'Review' },
  { keys: ['g', 'a'], command: 'go-annotations', label: 'Annotations', group: 'Go to' },
  { keys: ['g', 'r'], command: 'go-rules', label: 'Rules', group: 'Go to' },
  { keys: ['g', 'p'], command: 'go-policies', label: 'Policies', group: 'Go to' },
  { keys: ['g', 't'], command: 'go-test-reports', label: 'Test reports', group: 'Go to' },
  { keys: ['g', 's'], command: 'go-saved-searches', label: 'Saved searches', group: 'Go to' },
  { keys: ['g', 'f'], command: 'go-artifacts', label: 'Artifacts (files)', group: 'Go to' },
  { keys: ['g', 'y'], command: 'go-sync', label: 'Sync', group: 'Go to' },
];

/** Commands that open a text field: the keys typed right after them are held for it (keyHold.ts). */
export const OPENS_INPUT: ReadonlySet<Command> = new Set<Command>(['focus-filter', 'assign', 'comment', 'tags', 'create', 'edit']);

/** Commands that change data: never run while a text field, picker or dialog is open or opening. */
export const CHANGES_DATA: ReadonlySet<Command> = new Set<Command>(['cycle-state', 'assign-me', 'archive', 'undo']);

/** The part of a KeyboardEvent the reader looks at. */
export interface KeyInput {
  readonly key: string;
  readonly shiftKey?: boolean;
  readonly ctrlKey?: boolean;
  readonly metaKey?: boolean;
  readonly altKey?: boolean;
  /** True when the key goes to a text field (input, textarea, select, contenteditable). */
  readonly inField?: boolean;
}

const KEY_NAMES: Record<string, string> = { ArrowDown: '↓', ArrowUp: '↑', Escape: 'Esc' };

/** A sequence's first key waits this long for its second. */
export const SEQUENCE_MS = 1500;

/** The name of a key as the map spells it (`J` with Shift is `Shift j`). */
function chordOf(input: KeyInput): string[] | undefined {
  const key = KEY_NAMES[input.key] ?? input.key;
  if (input.altKey) return undefined;
  const modifier = input.ctrlKey || input.metaKey;
  if (modifier) return key.length === 1 ? ['Ctrl', key.toLowerCase()] : undefined;
  if (key.length === 1 && /[A-Z]/.test(key)) return ['Shift', key.toLowerCase()];
  return [key];
}

const sameKeys = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((k, i) => k === b[i]);

/** Turns key events into commands; keeps the first key of a `g …` sequence. */
export class ShortcutReader {
  #prefix: string | undefined;
  #prefixAt = 0;
  readonly #now: () => number;

  constructor(now: () => number = () => Date.now()) {
    this.#now = now;
  }

  /** The command for this key, 'pending' after a sequence's first key, undefined when the key is not a shortcut. */
  read(input: KeyInput): Command | 'pending' | undefined {
    // Typing goes to the field; only Esc leaves it.
    if (input.inField) {
      this.#prefix = undefined;
      return input.key === 'Escape' ? 'back' : undefined;
    }
    const chord = chordOf(input);
    if (!chord) return (this.#prefix = undefined);
    if (this.#prefix !== undefined) {
      const prefix = this.#prefix;
      this.#prefix = undefined;
      if (this.#now() - this.#prefixAt <= SEQUENCE_MS && chord.length === 1) {
        const hit = SHORTCUTS.find((s) => sameKeys(s.keys, [prefix, chord[0]]));
        if (hit) return hit.command;
      }
    }
    const hit = SHORTCUTS.find((s) => sameKeys(s.keys, chord));
    if (hit) return hit.command;
    if (chord.length === 1 && SHORTCUTS.some((s) => s.keys.length === 2 && s.keys[0] === chord[0])) {
      this.#prefix = chord[0];
      this.#prefixAt = this.#now();
      return 'pending';
    }
    return undefined;
  }
}

/** Whether a key event's target is a text field (its keys are typing, not commands). */
export function isTextField(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== 'string') return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (el as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color'].includes(type);
}
