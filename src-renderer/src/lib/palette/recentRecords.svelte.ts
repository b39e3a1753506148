// The records opened lately, of every kind, newest first, for the command
// palette: each view records the one its detail opens (one place, here), and
// the palette opens it again in its view. Kept in the page's local storage
// (kinds, ids and names only), so they outlast a reload.

/** The kinds of record a view opens in a detail, and the view that shows each. */
export const RECORD_KINDS = {
  annotation: { view: 'annotations', label: 'annotation' },
  'test-report': { view: 'test-reports', label: 'test report' },
  policy: { view: 'policies', label: 'policy' },
  rule: { view: 'rules', label: 'rule' },
  artifact: { view: 'artifacts', label: 'artifact' },
} as const;
export type RecordKind = keyof typeof RECORD_KINDS;

export interface RecentRecord {
  readonly kind: RecordKind;
  readonly id: string;
  readonly name: string;
}

/** How many are kept. */
export const RECENT_LIMIT = 20;
const STORAGE_KEY = 'outpost.recentRecords';
/** Where earlier versions kept recent annotations (ids and names): read once, as annotations. */
const LEGACY_KEY = 'outpost.recentAnnotations';

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

const sameRecord = (a: RecentRecord, b: RecentRecord) => a.kind === b.kind && a.id === b.id;

export class RecentRecords {
  items = $state.raw<readonly RecentRecord[]>([]);
  readonly #storage: KeyValueStorage | undefined;

  constructor(storage?: KeyValueStorage) {
    this.#storage = storage;
    this.items = readStored(storage);
  }

  /** `record` was opened: first in the list (once). */
  visited(record: RecentRecord): void {
    const first = this.items[0];
    if (first && sameRecord(first, record) && first.name === record.name) return;
    this.items = [record, ...this.items.filter((r) => !sameRecord(r, record))].slice(0, RECENT_LIMIT);
    try {
      this.#storage?.setItem(STORAGE_KEY, JSON.stringify(this.items));
    } catch {
      // Storage full or refused (a private window): the list still works for this page.
    }
  }
}

function readStored(storage: KeyValueStorage | undefined): RecentRecord[] {
  const stored = parse(storage, STORAGE_KEY);
  const records = stored ?? (parse(storage, LEGACY_KEY) ?? []).map((r) => ({ ...(r as object), kind: 'annotation' }));
  return records.filter(isRecentRecord).slice(0, RECENT_LIMIT);
}

function parse(storage: KeyValueStorage | undefined, key: string): unknown[] | undefined {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(key) ?? 'null');
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isRecentRecord(r: unknown): r is RecentRecord {
  const x = r as Partial<RecentRecord> | null;
  return typeof x?.id === 'string' && typeof x.name === 'string' && typeof x.kind === 'string' && Object.hasOwn(RECORD_KINDS, x.kind);
}
