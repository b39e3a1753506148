// The theme: light or dark as the system says (the default), or the one the
// user chose (the palette's Theme commands). Kept in the page's local storage
// and applied as `data-theme` on the root element, which sets the CSS
// `color-scheme` every color of app.css follows (light-dark()).

export const THEMES = [
  { id: 'system', label: 'follow the system (light or dark)' },
  { id: 'light', label: 'light' },
  { id: 'dark', label: 'dark' },
] as const;
export type ThemeChoice = (typeof THEMES)[number]['id'];

const STORAGE_KEY = 'outpost.theme';

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

export class Theme {
  choice = $state<ThemeChoice>('system');
  readonly #storage: KeyValueStorage | undefined;
  readonly #root: HTMLElement | undefined;

  constructor(root?: HTMLElement, storage?: KeyValueStorage) {
    this.#storage = storage;
    this.#root = root;
    const stored = readStored(storage);
    this.choice = THEMES.some((t) => t.id === stored) ? (stored as ThemeChoice) : 'system';
    this.#apply();
  }

  choose(choice: ThemeChoice): void {
    this.choice = choice;
    this.#apply();
    try {
      this.#storage?.setItem(STORAGE_KEY, choice);
    } catch {
      // Storage refused (a private window): the theme holds for this page.
    }
  }

  #apply(): void {
    if (!this.#root) return;
    if (this.choice === 'system') delete this.#root.dataset.theme;
    else this.#root.dataset.theme = this.choice;
  }
}

function readStored(storage: KeyValueStorage | undefined): string | null {
  try {
    return storage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}
