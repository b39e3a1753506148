// The annotations opened lately, newest first, for the command palette. Kept
// in the page's local storage (ids and names only), so they outlast a reload.

export interface RecentRecord {
  readonly id: string;
  readonly name: string;
}

/** How many are kept. */
export const RECENT_LIMIT = 12;
const STORAGE_KEY = 'outpost.recentAnnotations';

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

export class RecentRecords {
  items = $state.raw<readonly RecentRecord[]>([]);
  readonly #storage: KeyValueStorage | undefined;

  constructor(storage?: KeyValueStorage) {
    this.#storage = storage;
    this.items = readStored(storage);
  }

  /** `record` was opened: first in the list (once). */
  visited(record: RecentRecord): void {
    if (this.items[0]?.id === record.id && this.items[0].name === record.name) return;
    this.items = [record, ...this.items.filter((r) => r.id !== record.id)].slice(0, RECENT_LIMIT);
    try {
      this.#storage?.setItem(STORAGE_KEY, JSON.stringify(this.items));
    } catch {
      // Storage full or refused (a private window): the list still works for this page.
    }
  }
}

function readStored(storage: KeyValueStorage | undefined): RecentRecord[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((r): r is RecentRecord => typeof r?.id === 'string' && typeof r?.name === 'string').slice(0, RECENT_LIMIT);
  } catch {
    return [];
  }
}
