// What changed in the engine, whatever the platform (issue #30): the desktop
// engine host pushes `changes` bridge events; in the browser the change feed
// of `outpost serve` (GET /api/v1/outpost/changes, Server-Sent Events) is read
// with fetch, which can send the API key as a header (EventSource cannot), and
// read again from its last event id after a dropped connection.
import { CHANGES_PATH, type Change, type ChangesEvent } from '../../../../src-shared/api/changes';
import type { OutpostBridge } from './bridge';

export type ChangeWatcher = (listener: (changes: readonly Change[]) => void) => () => void;

export function electronChangeWatcher(bridge: OutpostBridge): ChangeWatcher {
  return (listener) =>
    bridge.onEvent((event) => {
      if (event.type === 'changes' && Array.isArray(event.changes)) listener(event.changes as Change[]);
    });
}

/** Reconnects after a dropped stream: soon, then less often (a stopped server is not hammered). */
const RETRY_MS = [500, 1_000, 2_000, 5_000];

interface StreamState {
  lastEventId?: string;
  stopped: boolean;
  abort?: AbortController;
}

/** The SSE blocks of `text` that are complete, and the rest (a block cut by a chunk boundary). */
function splitBlocks(text: string): [blocks: string[], rest: string] {
  const blocks = text.split(/\r?\n\r?\n/);
  return [blocks.slice(0, -1), blocks[blocks.length - 1]];
}

function readBlock(block: string): { id?: string; event?: string; data: string } {
  const out: { id?: string; event?: string; data: string } = { data: '' };
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') out.id = value;
    else if (field === 'event') out.event = value;
    else if (field === 'data') out.data += value;
  }
  return out;
}

async function readStream(
  fetchFn: typeof fetch,
  baseUrl: string,
  apiKey: string | undefined,
  state: StreamState,
  listener: (changes: readonly Change[]) => void,
  connected: () => void,
): Promise<void> {
  state.abort = new AbortController();
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  if (state.lastEventId) headers['Last-Event-ID'] = state.lastEventId;
  const res = await fetchFn(baseUrl + CHANGES_PATH, { headers, signal: state.abort.signal, cache: 'no-store' });
  if (!res.ok || !res.body) throw new Error(`change feed: HTTP ${res.status}`);
  connected();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    const [blocks, rest] = splitBlocks(buffer + decoder.decode(value, { stream: true }));
    buffer = rest;
    for (const block of blocks) {
      const event = readBlock(block);
      if (event.id !== undefined) state.lastEventId = event.id;
      if (event.event === 'changes' && event.data) listener((JSON.parse(event.data) as ChangesEvent).changes);
    }
  }
}

/** The browser's watcher: one stream while someone listens, reconnected with Last-Event-ID. */
export function sseChangeWatcher(fetchFn: typeof fetch, baseUrl: string, apiKey: () => string | undefined): ChangeWatcher {
  return (listener) => {
    const state: StreamState = { stopped: false };
    void (async () => {
      let failures = 0;
      while (!state.stopped) {
        try {
          await readStream(fetchFn, baseUrl, apiKey(), state, listener, () => (failures = 0));
        } catch {
          // Offline, the server restarting, a proxy cutting long requests: read again shortly.
        }
        if (state.stopped) return;
        await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]));
      }
    })();
    return () => {
      state.stopped = true;
      state.abort?.abort();
    };
  };
}
