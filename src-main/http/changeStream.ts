// `GET /api/v1/outpost/changes`: the engine's change feed as Server-Sent
// Events (issue #30). Authenticated like every call; each client is sent only
// the records it may read (auth/cedar readableIds: a Get's decision), its
// changes coalesced and sent at most every MIN_INTERVAL_MS, with a comment as
// heartbeat. `Last-Event-ID` resumes from the ring of the feed; a position the
// ring no longer holds (or another process's) gets one `gap` change: reload
// everything. A client whose unread output passes MAX_BUFFERED_BYTES is
// dropped: writers publish into the ring and never wait for a reader.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANY_RESOURCE, type Change } from '../../src-shared/api/changes';
import { authenticate } from '../auth/apiKeys';
import { organizationIds, type Caller } from '../auth/caller';
import { readableIds } from '../auth/cedar/authorize';
import { RECORD_TYPES } from '../auth/cedar/recordTypes';
import type { Engine } from '../engine';
import { changeFeedFor, coalesce, GAP, type ChangeFeed } from '../services/changeFeed';

/** At most this often per client (a few events a second), changes between two sends coalesced. */
export const MIN_INTERVAL_MS = 250;
export const DEFAULT_HEARTBEAT_MS = 15_000;
/** Output a client left unread past this is a client that does not read: it is dropped. */
export const MAX_BUFFERED_BYTES = 256 * 1024;

export interface ChangeStreamOptions {
  readonly heartbeatMs?: number;
}

interface Client {
  readonly res: ServerResponse;
  readonly caller: Caller;
  /** Callers with the same key see the same changes: one filtering and one encoding per send for all of them. */
  readonly key: string;
  seq: number;
  gap: boolean;
}

const recordTypeOfTable = new Map(RECORD_TYPES.map((t) => [t.table, t]));

class ChangeHub {
  private readonly clients = new Set<Client>();
  private readonly feed: ChangeFeed;
  private unsubscribe?: () => void;
  private timer?: ReturnType<typeof setTimeout>;
  private heartbeat?: ReturnType<typeof setInterval>;
  private lastSend = 0;

  constructor(
    private readonly engine: Engine,
    private readonly heartbeatMs: number,
  ) {
    this.feed = changeFeedFor(engine.db);
  }

  join(client: Client): void {
    this.clients.add(client);
    client.res.on('close', () => this.leave(client));
    if (this.clients.size === 1) {
      this.unsubscribe = this.feed.subscribe(() => this.schedule());
      this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
      this.heartbeat.unref();
    }
    if (client.gap || client.seq < this.feed.last) this.schedule();
  }

  private leave(client: Client): void {
    if (!this.clients.delete(client) || this.clients.size > 0) return;
    this.unsubscribe?.();
    clearInterval(this.heartbeat);
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.send(), Math.max(0, this.lastSend + MIN_INTERVAL_MS - Date.now()));
    this.timer.unref();
  }

  private send(): void {
    this.timer = undefined;
    this.lastSend = Date.now();
    const encoded = new Map<string, string | undefined>();
    for (const client of this.clients) {
      const cacheKey = `${client.key}\n${client.gap ? 'gap' : client.seq}`;
      if (!encoded.has(cacheKey)) encoded.set(cacheKey, this.encode(client));
      const text = encoded.get(cacheKey);
      client.gap = false;
      client.seq = this.feed.last;
      if (text) this.write(client, text);
    }
  }

  /** The event a client is due (undefined when nothing it may read changed). */
  private encode(client: Client): string | undefined {
    const since = client.gap ? 'gap' : this.feed.since(client.seq);
    const changes = since === 'gap' ? [GAP] : coalesce(since.entries.flatMap((e) => this.readable(client.caller, e.change) ?? []));
    if (changes.length === 0) return undefined;
    return `id: ${this.feed.position(this.feed.last)}\nevent: changes\ndata: ${JSON.stringify({ changes })}\n\n`;
  }

  /** The change as this caller may see it: only records it may read; undefined when none. */
  private readable(caller: Caller, change: Change): Change | undefined {
    const type = recordTypeOfTable.get(change.resource);
    if (change.ids === 'many' || change.resource === ANY_RESOURCE) return change;
    if (!type) return caller.owner ? change : { ...change, ids: 'many' };
    const ids = readableIds({ db: this.engine.db, caller, replica: this.engine.replica?.writeRecorder() !== undefined }, type, change.ids);
    return ids.length ? { ...change, ids } : undefined;
  }

  private beat(): void {
    for (const client of this.clients) this.write(client, ': heartbeat\n\n');
  }

  private write(client: Client, text: string): void {
    client.res.write(text);
    if (client.res.writableLength > MAX_BUFFERED_BYTES) client.res.destroy(); // 'close' removes it
  }
}

const hubs = new WeakMap<Engine, ChangeHub>();

/** The caller as the feed decides for it: on a synced replica the owner reads as the remote user (as invoke does). */
function effectiveCaller(engine: Engine, caller: Caller): Caller {
  const acting = engine.replica?.actingCaller();
  return acting && caller.owner === true ? { ...acting, owner: true } : caller;
}

/** Serves one feed request (throws the contract's errors before anything is written: 401 without a key). */
export function serveChanges(engine: Engine, req: IncomingMessage, res: ServerResponse, options: ChangeStreamOptions = {}): void {
  const caller = effectiveCaller(engine, authenticate(engine.db, req.headers.authorization));
  let hub = hubs.get(engine);
  if (!hub) hubs.set(engine, (hub = new ChangeHub(engine, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS)));
  const feed = changeFeedFor(engine.db);
  const resumeFrom = req.headers['last-event-id'];
  const seq = typeof resumeFrom === 'string' && resumeFrom !== '' ? feed.parsePosition(resumeFrom) : feed.last;
  const gap = seq === undefined || feed.since(seq) === 'gap';
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
  });
  // The position to resume from, even before anything changes.
  res.write(`retry: 2000\nid: ${feed.position(seq ?? feed.last)}\nevent: ready\ndata: {}\n\n`);
  req.socket.setNoDelay(true);
  const key = JSON.stringify([caller.userId, organizationIds(caller), caller.owner === true]);
  hub.join({ res, caller, key, seq: seq ?? feed.last, gap });
}
