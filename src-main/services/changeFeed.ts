// The engine's change feed: every write publishes here which records changed
// and why, from the two places every write passes (services/invoke.ts for
// callers' writes, sync/pull.ts for the pages a pull applies). Readers (the
// SSE stream of `outpost serve`, the desktop engine host) are told that
// something arrived, at most once per event-loop turn, and read the changes
// they have not seen from a bounded ring: a writer never waits on a reader.
import { randomBytes } from 'node:crypto';
import { ANY_RESOURCE, type Change } from '../../src-shared/api/changes';
import type { Db } from '../db/database';

/** How many changes the ring keeps for readers that resume (Last-Event-ID) or fall behind. */
export const RING_SIZE = 4096;
/** A change naming more ids than this says `many` (readers reload rather than fetch each). */
export const MAX_IDS = 100;

export interface FeedEntry {
  readonly seq: number;
  readonly change: Change;
}

/** What a reader gets after `seq`: the entries it has not seen, or `gap` when the ring no longer holds them all. */
export type Since = { readonly entries: readonly FeedEntry[]; readonly last: number } | 'gap';

export class ChangeFeed {
  /** Names this process's feed in positions (`<epoch>.<seq>`): a position from another process (or before a restart) is a gap. */
  readonly epoch = randomBytes(4).toString('hex');
  private readonly ring: FeedEntry[] = [];
  private seq = 0;
  private readonly listeners = new Set<() => void>();
  private notifying = false;

  publish(change: Change): void {
    const ids = change.ids !== 'many' && change.ids.length > MAX_IDS ? 'many' : change.ids;
    if (ids !== 'many' && ids.length === 0) return;
    this.ring.push({ seq: ++this.seq, change: { ...change, ids } });
    if (this.ring.length > RING_SIZE) this.ring.splice(0, this.ring.length - RING_SIZE);
    if (this.notifying || this.listeners.size === 0) return;
    this.notifying = true;
    setImmediate(() => {
      this.notifying = false;
      for (const listener of this.listeners) listener();
    });
  }

  /** The position of the latest change. */
  get last(): number {
    return this.seq;
  }

  /** A reader's position as it travels (an SSE `id:`). */
  position(seq: number): string {
    return `${this.epoch}.${seq}`;
  }

  /** A position read back (Last-Event-ID): its seq in this feed, or undefined when it is not one of this feed's. */
  parsePosition(text: string): number | undefined {
    const m = /^([0-9a-f]+)\.(\d+)$/.exec(text.trim());
    if (!m || m[1] !== this.epoch) return undefined;
    const seq = Number(m[2]);
    return seq <= this.seq ? seq : undefined;
  }

  since(seq: number): Since {
    if (seq >= this.seq) return { entries: [], last: this.seq };
    const first = this.ring[0]?.seq ?? this.seq + 1;
    if (seq < first - 1) return 'gap';
    return { entries: this.ring.slice(seq - first + 1), last: this.seq };
  }

  /** Called (at most once per event-loop turn) after changes arrived; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The change a reader gets when it missed some it cannot be told about one by one: everything may have changed. */
export const GAP: Change = { resource: ANY_RESOURCE, ids: 'many', reason: 'gap' };

const feeds = new WeakMap<Db, ChangeFeed>();

/** The feed of a database (one per open connection, so per process and data directory). */
export function changeFeedFor(db: Db): ChangeFeed {
  let feed = feeds.get(db);
  if (!feed) feeds.set(db, (feed = new ChangeFeed()));
  return feed;
}

/**
 * Coalesces changes for one delivery: one change per resource, reason and writer, ids merged (`many` absorbs
 * them; past MAX_IDS they become `many`); a gap absorbs everything.
 */
export function coalesce(changes: readonly Change[]): Change[] {
  if (changes.some((c) => c.reason === 'gap')) return [GAP];
  const merged = new Map<string, { change: Change; ids: Set<string> | 'many' }>();
  for (const c of changes) {
    const key = `${c.resource}\n${c.reason}\n${c.userId ?? ''}`;
    const hit = merged.get(key);
    if (!hit) {
      merged.set(key, { change: c, ids: c.ids === 'many' ? 'many' : new Set(c.ids) });
      continue;
    }
    if (hit.ids === 'many') continue;
    if (c.ids === 'many') hit.ids = 'many';
    else for (const id of c.ids) hit.ids.add(id);
    if (hit.ids !== 'many' && hit.ids.size > MAX_IDS) hit.ids = 'many';
  }
  return [...merged.values()].map(({ change, ids }) => ({ ...change, ids: ids === 'many' ? 'many' : [...ids] }));
}

/** What a reader at `seq` is due, coalesced (one gap change when the ring no longer holds them), and its new position. */
export function changesSince(feed: ChangeFeed, seq: number): { readonly changes: Change[]; readonly last: number } {
  const since = feed.since(seq);
  if (since === 'gap') return { changes: [GAP], last: feed.last };
  return { changes: coalesce(since.entries.map((e) => e.change)), last: since.last };
}
