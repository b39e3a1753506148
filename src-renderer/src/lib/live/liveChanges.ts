// The renderer's one subscription to what changed in the engine (issue #30):
// views say which resources they show and how to refresh; the hub calls each
// refresh when a change names one of them (or a gap names everything), never
// two at once for the same view: changes that arrive during a refresh run it
// once more afterwards.
import { ANY_RESOURCE, type Change } from '../../../../src-shared/api/changes';
import type { ChangeWatcher } from '../transport/changeWatchers';

export type Refresh = (changes: readonly Change[]) => unknown;

interface Subscription {
  readonly resources: ReadonlySet<string>;
  readonly refresh: Refresh;
  running: boolean;
  queued: Change[];
}

export class LiveChanges {
  readonly #subscriptions = new Set<Subscription>();
  readonly #watch: ChangeWatcher;

  constructor(watch: ChangeWatcher) {
    this.#watch = watch;
  }

  /** Starts listening to the engine; returns the function that stops it. */
  start(): () => void {
    return this.#watch((changes) => this.deliver(changes));
  }

  /** Calls `refresh` with the changes of these resources; returns the unsubscribe function. */
  on(resources: readonly string[], refresh: Refresh): () => void {
    const subscription: Subscription = { resources: new Set(resources), refresh, running: false, queued: [] };
    this.#subscriptions.add(subscription);
    return () => this.#subscriptions.delete(subscription);
  }

  deliver(changes: readonly Change[]): void {
    for (const s of this.#subscriptions) {
      const mine = changes.filter((c) => c.resource === ANY_RESOURCE || s.resources.has(c.resource));
      if (mine.length === 0) continue;
      s.queued.push(...mine);
      if (!s.running) void this.#run(s);
    }
  }

  async #run(s: Subscription): Promise<void> {
    s.running = true;
    try {
      while (s.queued.length > 0 && this.#subscriptions.has(s)) {
        const batch = s.queued.splice(0);
        try {
          await s.refresh(batch);
        } catch {
          // A refresh that failed leaves the view as it was; the next change tries again.
        }
      }
    } finally {
      s.running = false;
    }
  }
}

/** Whether the changes name the record `id` (or may: `many`, a gap). */
export function names(changes: readonly Change[], id: string | undefined): boolean {
  return id !== undefined && changes.some((c) => c.ids === 'many' || c.ids.includes(id));
}
