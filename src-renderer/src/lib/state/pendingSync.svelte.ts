// Which records have local edits not yet sent to the remote (open outbox
// entries): rows show a pending-sync mark until a sync run sends them. Read
// after the user's own edits and after every finished sync run.
import type { Client } from '../../../../src-shared/client';

/** Outbox entries read at most (a mark on the first 5000 waiting records is enough to see that edits wait). */
const MAX_ENTRIES = 5000;

export class PendingSync {
  ids = $state.raw<ReadonlySet<string>>(new Set());
  /** The outbox has been read at least once (marks shown are known, not just not yet read). */
  read = $state(false);
  readonly #client: Client;
  #generation = 0;

  constructor(client: Client) {
    this.#client = client;
  }

  has(recordId: string): boolean {
    return this.ids.has(recordId);
  }

  async refresh(): Promise<void> {
    const generation = ++this.#generation;
    const ids = new Set<string>();
    let pageToken: string | undefined;
    let read = 0;
    try {
      do {
        const res = await this.#client.ListSyncOutbox({ state: 'open', pageSize: 1000, ...(pageToken ? { pageToken } : {}) });
        for (const entry of res.entries) for (const r of entry.records) ids.add(r.recordId);
        read += res.entries.length;
        pageToken = res.nextPageToken || undefined;
      } while (pageToken && read < MAX_ENTRIES);
    } catch {
      // No outbox to read (an engine without sync): no marks.
      if (generation === this.#generation) this.read = true;
      return;
    }
    if (generation !== this.#generation) return;
    this.ids = ids;
    this.read = true;
  }
}
