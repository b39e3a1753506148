// A Server-Sent Events reader for the change feed (GET /api/v1/outpost/changes),
// over fetch's streamed body as a script would read it: events parsed as they
// arrive, waited for with a deadline.
import type { Change } from '../../src-shared/api/changes';
import { CHANGES_PATH } from '../../src-shared/api/changes';

export interface FeedEvent {
  readonly id?: string;
  readonly event: string;
  readonly data: string;
}

export interface ChangeStreamReader {
  readonly status: number;
  readonly events: FeedEvent[];
  /** The changes of every `changes` event so far. */
  changes(): Change[];
  /** The id of the latest event that carried one (what a client resumes from). */
  lastId(): string | undefined;
  /** Resolves once a change matching `match` arrived (from the `from`th change on); rejects after `ms`. */
  waitFor(what: string, match: (c: Change) => boolean, ms: number, from?: number): Promise<Change>;
  close(): void;
}

export async function openChangeStream(baseUrl: string, token: string | null, lastEventId?: string): Promise<ChangeStreamReader> {
  const abort = new AbortController();
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (lastEventId) headers['Last-Event-ID'] = lastEventId;
  const res = await fetch(baseUrl + CHANGES_PATH, { headers, signal: abort.signal });
  const events: FeedEvent[] = [];
  const waiters = new Set<() => void>();
  const changes = () => events.filter((e) => e.event === 'changes').flatMap((e) => (JSON.parse(e.data) as { changes: Change[] }).changes);
  if (res.ok && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields: Record<string, string> = {};
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) continue;
              const colon = line.indexOf(':');
              if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
            }
            if (!fields.event && !fields.data) continue;
            events.push({ id: fields.id, event: fields.event ?? 'message', data: fields.data ?? '' });
            for (const w of waiters) w();
          }
        }
      } catch {
        // closed
      }
    })();
  }
  return {
    status: res.status,
    events,
    changes,
    lastId: () => [...events].reverse().find((e) => e.id !== undefined)?.id,
    waitFor(what, match, ms, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = changes().slice(from).find(match);
          if (!hit) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hit);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no change feed event for ${what} within ${ms} ms; got ${JSON.stringify(changes())}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
}

/** Resolves once the stream sent its `ready` event (its position is then known). */
export async function ready(reader: ChangeStreamReader, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!reader.events.some((e) => e.event === 'ready')) {
    if (Date.now() > end) throw new Error('the change feed sent no ready event');
    await new Promise((r) => setTimeout(r, 10));
  }
}
