// A view's open record and the app's address, for the views with a list and a
// detail (test reports, policies, rules, artifacts): the record the address
// names (a reload, back/forward, a recent record chosen in the palette) opens
// in the detail, and the one the detail shows goes into the address and the
// recent records. One call in the view's script.
import { onMount, untrack } from 'svelte';
import { toErrorInfo, type ErrorInfo } from '../errors';
import { RECORD_KINDS, type RecordKind } from '../palette/recentRecords.svelte';
import type { NavigationState } from './navigation.svelte';

export interface RoutedRecordOptions {
  readonly kind: Exclude<RecordKind, 'annotation'>;
  /** The record the detail shows now. */
  readonly shown: () => { readonly id: string; readonly name: string } | undefined;
  /** Opens record `id` in the detail (reading it when it is not listed). */
  readonly open: (id: string) => Promise<void>;
}

export class RoutedRecord {
  /** Why the record the address names could not be opened. */
  error = $state<ErrorInfo | undefined>();

  constructor(nav: NavigationState, options: RoutedRecordOptions) {
    const view = RECORD_KINDS[options.kind].view;
    const initial = nav.view === view ? nav.record : undefined;
    let arrivals = nav.arrivals;
    onMount(() => {
      if (initial) void this.#open(options, initial);
    });
    // Back/forward or the palette named another record of this view.
    $effect(() => {
      if (nav.arrivals === arrivals) return;
      arrivals = nav.arrivals;
      const id = nav.record;
      untrack(() => {
        if (id && id !== options.shown()?.id) void this.#open(options, id);
      });
    });
    $effect(() => {
      const record = options.shown();
      if (!record) return;
      untrack(() => {
        this.error = undefined;
        nav.showRecord(view, record.id);
        nav.recent.visited({ kind: options.kind, id: record.id, name: record.name });
      });
    });
  }

  async #open(options: RoutedRecordOptions, id: string): Promise<void> {
    this.error = undefined;
    try {
      await options.open(id);
    } catch (e) {
      this.error = toErrorInfo(e);
    }
  }
}
