// The desktop's side of the change feed: the engine host forwards what changed
// to the window as `changes` events (host event -> main -> preload onEvent),
// coalesced and at most every MIN_INTERVAL_MS, like `outpost serve`'s stream.
// The window is the owner's: it is told every change.
import type { Db } from '../db/database';
import { changeFeedFor, changesSince } from '../services/changeFeed';
import { MIN_INTERVAL_MS } from '../http/changeStream';
import type { HostEvent } from './protocol';

export const CHANGES_EVENT = 'changes';

/** Starts forwarding; returns the function that stops it. */
export function forwardChanges(db: Db, publish: (event: HostEvent) => void): () => void {
  const feed = changeFeedFor(db);
  let seq = feed.last;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastSend = 0;
  const send = () => {
    timer = undefined;
    lastSend = Date.now();
    const due = changesSince(feed, seq);
    seq = due.last;
    if (due.changes.length) publish({ type: CHANGES_EVENT, changes: due.changes });
  };
  const unsubscribe = feed.subscribe(() => {
    timer ??= setTimeout(send, Math.max(0, lastSend + MIN_INTERVAL_MS - Date.now()));
  });
  return () => {
    unsubscribe();
    clearTimeout(timer);
  };
}
