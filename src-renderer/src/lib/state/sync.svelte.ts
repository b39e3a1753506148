// The Sync view: the remote form (URL + write-only key), "Sync now", edits the
// remote refused (retry / dismiss) and open conflicts (undo / dismiss). The live status
// itself is the shared SyncMonitor's.
import type { Client } from '../../../../src-shared/client';
import { toErrorInfo, type ErrorInfo } from '../errors';
import {
  configureRemote,
  dismissConflict,
  dismissEntry,
  getRemote,
  listFailedEntries,
  listOpenConflicts,
  removeRemote,
  retryEntry,
  syncNow,
  undoConflict,
  type SyncConflict,
  type SyncOutboxEntry,
  type SyncRemote,
} from '../services/syncService';
import type { SyncMonitor } from './syncMonitor.svelte';

/** What is in progress: the form, the run, or one row (`retry:7`, `dismiss-entry:7`, `undo:<id>`, `dismiss:<id>`). */
export type SyncAction =
  | 'save'
  | 'remove'
  | 'sync'
  | `retry:${string}`
  | `dismiss-entry:${string}`
  | `discard-entry:${string}`
  | `undo:${string}`
  | `dismiss:${string}`;

export class SyncWorkspace {
  remote = $state<SyncRemote | null | undefined>();
  baseUrl = $state('');
  apiKey = $state('');
  failed = $state<SyncOutboxEntry[]>([]);
  conflicts = $state<SyncConflict[]>([]);
  loading = $state(false);
  loaded = $state(false);
  loadError = $state<ErrorInfo | undefined>();
  pending = $state<SyncAction | undefined>();
  /** A rejected form (field violations are shown next to their inputs). */
  formError = $state<ErrorInfo | undefined>();
  actionError = $state<ErrorInfo | undefined>();
  notice = $state('');

  readonly #client: Client;
  readonly #monitor: SyncMonitor;

  constructor(client: Client, monitor: SyncMonitor) {
    this.#client = client;
    this.#monitor = monitor;
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      const [remote] = await Promise.all([getRemote(this.#client), this.loadLists()]);
      this.remote = remote;
      this.baseUrl = remote?.baseUrl ?? '';
      this.loadError = undefined;
    } catch (e) {
      this.loadError = toErrorInfo(e);
    } finally {
      this.loading = false;
      this.loaded = true;
    }
  }

  /** Failed entries and open conflicts (after a run, a retry, an undo). */
  async loadLists(): Promise<void> {
    const [failed, conflicts] = await Promise.all([listFailedEntries(this.#client), listOpenConflicts(this.#client)]);
    this.failed = failed;
    this.conflicts = conflicts;
  }

  /** loadLists for a background trigger (a run finished): a failure is shown like a failed load. */
  async refreshLists(): Promise<void> {
    try {
      await this.loadLists();
      this.loadError = undefined;
    } catch (e) {
      this.loadError = toErrorInfo(e);
    }
  }

  /** The description of a form field's violation (`base_url`, `api_key`), if the last save was rejected for it. */
  fieldError(field: string): string | undefined {
    return this.formError?.fieldViolations.find((v) => v.field === field)?.description;
  }

  async saveRemote(): Promise<boolean> {
    if (this.pending) return false;
    this.pending = 'save';
    this.formError = undefined;
    this.notice = '';
    try {
      this.remote = await configureRemote(this.#client, this.baseUrl, this.apiKey);
      this.baseUrl = this.remote.baseUrl;
      this.apiKey = '';
      this.notice = `Saved. A sync with ${this.remote.baseUrl} has started.`;
      await this.#monitor.refresh();
      return true;
    } catch (e) {
      this.formError = toErrorInfo(e);
      return false;
    } finally {
      this.pending = undefined;
    }
  }

  async removeRemote(): Promise<boolean> {
    if (!(await this.#run('remove', () => removeRemote(this.#client)))) return false;
    this.remote = null;
    this.baseUrl = '';
    this.apiKey = '';
    this.notice = 'Remote removed. Local data and queued edits stay on this machine.';
    await this.#monitor.refresh();
    return true;
  }

  async syncNow(): Promise<void> {
    const done = await this.#run('sync', () => syncNow(this.#client));
    if (done) this.#monitor.apply({ kind: 'status', status: done.value, running: done.value.state === 'syncing' });
  }

  async retry(seq: string): Promise<void> {
    if (!(await this.#run(`retry:${seq}`, () => retryEntry(this.#client, seq)))) return;
    this.failed = this.failed.filter((e) => e.seq !== seq);
    // Entries that waited on this one were queued again with it: read the list again.
    await Promise.all([this.refreshLists(), this.#monitor.refresh()]);
  }

  /** Sets a refused edit aside (never sent); the badge's count drops with it. */
  async dismissEntry(seq: string): Promise<void> {
    if (!(await this.#run(`dismiss-entry:${seq}`, () => dismissEntry(this.#client, seq)))) return;
    this.failed = this.failed.filter((e) => e.seq !== seq);
    await this.#monitor.refresh();
  }

  /** Sets a refused create aside and deletes its record here; the edits that waited on it go too: read the list again. */
  async discardEntry(seq: string): Promise<void> {
    if (!(await this.#run(`discard-entry:${seq}`, () => dismissEntry(this.#client, seq, true)))) return;
    this.failed = this.failed.filter((e) => e.seq !== seq);
    await Promise.all([this.refreshLists(), this.#monitor.refresh()]);
  }

  async undo(conflictId: string): Promise<void> {
    await this.#resolve(`undo:${conflictId}`, conflictId, () => undoConflict(this.#client, conflictId));
  }

  async dismiss(conflictId: string): Promise<void> {
    await this.#resolve(`dismiss:${conflictId}`, conflictId, () => dismissConflict(this.#client, conflictId));
  }

  async #resolve(action: SyncAction, conflictId: string, run: () => Promise<SyncConflict>): Promise<void> {
    if (!(await this.#run(action, run))) return;
    this.conflicts = this.conflicts.filter((c) => c.conflictId !== conflictId);
    await this.#monitor.refresh();
  }

  /** Runs one action at a time; `{ value }` on success, undefined when refused (see actionError) or busy. */
  async #run<T>(action: SyncAction, run: () => Promise<T>): Promise<{ value: T } | undefined> {
    if (this.pending) return undefined;
    this.pending = action;
    this.actionError = undefined;
    this.notice = '';
    try {
      return { value: await run() };
    } catch (e) {
      this.actionError = toErrorInfo(e);
      return undefined;
    } finally {
      this.pending = undefined;
    }
  }
}
