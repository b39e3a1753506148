// The Sync view: the remote form (URL + write-only key), "Sync now", edits the
// remote refused (retry / dismiss) and open conflicts (undo / dismiss). The live status
// itself is the shared SyncMonitor's.
import type { Client } from '../../../../src-shared/client';
import { toErrorInfo, type ErrorInfo } from '../errors';
import { counted } from '../format';
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
  testRemote,
  undoConflict,
  type SyncConflict,
  type SyncOutboxEntry,
  type SyncRemote,
  type SyncRemoteCheck,
} from '../services/syncService';
import type { SyncMonitor } from './syncMonitor.svelte';

/** What becomes of the records made here before a first link: sent to the remote organization, or kept on this machine. */
export type StaysLocalChoice = 'adopt' | 'keep';

/** What is in progress: the form, the run, or one row (`retry:7`, `dismiss-entry:7`, `undo:<id>`, `dismiss:<id>`). */
export type SyncAction =
  | 'save'
  | 'adopt'
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
  /** A first link that checked out and leaves records here: it waits for the user's choice (adopt or keep). */
  linkCheck = $state<SyncRemoteCheck | undefined>();
  /** The remote organization the records go to when adopted (chosen when the remote user has several). */
  adoptTo = $state('');

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

  /**
   * loadLists for a background trigger (a run finished): a failure is shown like a failed load. A run may also have
   * sent the records the link chose to send: the remote is read again while that choice waits.
   */
  async refreshLists(): Promise<void> {
    try {
      const [remote] = await Promise.all([this.remote?.adoptPreLinkRecords ? getRemote(this.#client) : undefined, this.loadLists()]);
      if (remote !== undefined) this.remote = remote;
      this.loadError = undefined;
    } catch (e) {
      this.loadError = toErrorInfo(e);
    }
  }

  /** The description of a form field's violation (`base_url`, `api_key`), if the last save was rejected for it. */
  fieldError(field: string): string | undefined {
    return this.formError?.fieldViolations.find((v) => v.field === field)?.description;
  }

  /**
   * Checks the link (TestSyncRemote: it answers, takes the key, whose it is), then saves it. A failed check saves
   * nothing and says which step failed. A first link that leaves records made here waits for `choice` (see linkCheck).
   */
  async saveRemote(choice?: StaysLocalChoice): Promise<boolean> {
    if (this.pending) return false;
    this.pending = 'save';
    this.formError = undefined;
    this.notice = '';
    try {
      const check = choice && this.linkCheck ? this.linkCheck : await testRemote(this.#client, this.baseUrl, this.apiKey);
      if (!check.linked && check.staysLocal.total > 0 && !choice) {
        this.linkCheck = check;
        this.adoptTo = check.organizations.length === 1 ? check.organizations[0].organizationId : '';
        return false;
      }
      // "Send them" is the engine's to carry out: kept with the link, done by the first sync whoever starts it.
      this.remote = await configureRemote(this.#client, this.baseUrl, this.apiKey, choice === 'adopt' ? this.adoptTo : undefined);
      this.linkCheck = undefined;
      this.baseUrl = this.remote.baseUrl;
      this.apiKey = '';
      const orgs = check.organizations.map((o) => o.name).join(', ');
      const records = counted(check.staysLocal.total, 'records');
      const then =
        choice === 'adopt'
          ? ` The ${records} made here go to the remote with the first sync.`
          : choice === 'keep'
            ? ` The ${records} made here stay on this machine; they can still be sent from this page.`
            : '';
      this.notice = `Saved. A sync with ${this.remote.baseUrl} has started. You work there as ${check.userEmail} (${orgs}).${then}`;
      await this.#monitor.refresh();
      return true;
    } catch (e) {
      this.formError = toErrorInfo(e);
      return false;
    } finally {
      this.pending = undefined;
    }
  }

  /** Back to the form without linking (the choice of what stays local was not made). */
  cancelLink(): void {
    this.linkCheck = undefined;
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
