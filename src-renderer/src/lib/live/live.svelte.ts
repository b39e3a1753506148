// How a view joins the live changes: one call in its script. The subscription
// lives as long as the view (an $effect's cleanup ends it).
import { getContext, setContext } from 'svelte';
import type { LiveChanges, Refresh } from './liveChanges';

const LIVE_KEY = Symbol('outpost.live');

export function setLiveChanges(live: LiveChanges): void {
  setContext(LIVE_KEY, live);
}

/** Refreshes with `refresh` while the calling component is mounted, whenever records of `resources` change. */
export function refreshOnChange(resources: readonly string[], refresh: Refresh): void {
  const live = getContext<LiveChanges | undefined>(LIVE_KEY);
  if (!live) return; // rendered outside App (a component spec): nothing to listen to
  $effect(() => live.on(resources, refresh));
}
