// The batch action just run and its undo: the action's words and count for
// the toast, and for a few seconds the inverse batch. A new action replaces
// the undo of the last one. A toast goes after UNDO_MS (with its undo), counted again from when the pointer or
// the focus leaves it (no one loses an undo while reaching for it); an error stays until dismissed.
import type { Client } from '../../../../src-shared/client';
import { failedWhile, type ErrorInfo } from '../errors';
import { affected, applyBatch, describeAction, doingOf, subjectOf, undoBatch, type BatchAction } from '../services/batchService';
import type { Annotation } from '../services/annotationService';

export const UNDO_MS = 8000;
/** A batch quicker than this shows no progress (it would only flicker). */
export const PROGRESS_AFTER_MS = 250;

interface Done {
  readonly action: BatchAction;
  readonly before: Annotation[];
  readonly after: Map<string, Annotation>;
}

export class BatchActions {
  /** Words for the toast ("Archived 3 annotations"), empty when there is nothing to say. */
  message = $state('');
  /** An undo can be run now. */
  canUndo = $state(false);
  running = $state(false);
  /** What is running, said once it has taken PROGRESS_AFTER_MS ("Archiving 3,000 annotations…"); empty otherwise. */
  progress = $state('');
  error = $state<ErrorInfo | undefined>();

  readonly #client: Client;
  readonly #onUpdated: (a: Annotation) => void;
  readonly #userName: (id: string) => string;
  #done: Done | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The pointer or the focus is on the toast. */
  #held = false;

  constructor(client: Client, onUpdated: (a: Annotation) => void, userName: (id: string) => string = (id) => id) {
    this.#client = client;
    this.#onUpdated = onUpdated;
    this.#userName = userName;
  }

  /** Runs `action` on the annotations it changes; returns the updated ones (false when it failed). */
  async run(action: BatchAction, annotations: readonly Annotation[]): Promise<Annotation[] | false> {
    if (this.running) return false;
    const before = affected(action, annotations);
    this.#forgetUndo();
    this.error = undefined;
    if (!before.length) {
      this.message = `Nothing to change (${annotations.length} already so)`;
      this.#expire();
      return [];
    }
    this.running = true;
    const stopProgress = this.#progressAfter(`${doingOf(action)} ${subjectOf(before)}`);
    const after = new Map<string, Annotation>();
    try {
      const updated = await applyBatch(this.#client, action, before, (a) => (after.set(a.annotationId, a), this.#onUpdated(a)));
      this.#done = { action, before, after };
      this.message = describeAction(action, updated.length, this.#userName);
      this.canUndo = true;
      this.#expire();
      return updated;
    } catch (e) {
      this.error = failedWhile(e, doingOf(action), subjectOf(before));
      // What did change can still be undone.
      if (after.size) {
        this.#done = { action, before: before.filter((b) => after.has(b.annotationId)), after };
        this.canUndo = true;
        this.#expire();
      }
      this.message = after.size ? `${describeAction(action, after.size, this.#userName)}; the rest failed` : '';
      return false;
    } finally {
      stopProgress();
      this.running = false;
    }
  }

  /** Says what runs once it has taken PROGRESS_AFTER_MS; the returned function ends it. */
  #progressAfter(doing: string): () => void {
    const timer = setTimeout(() => (this.progress = `${doing.charAt(0).toUpperCase()}${doing.slice(1)}…`), PROGRESS_AFTER_MS);
    return () => {
      clearTimeout(timer);
      this.progress = '';
    };
  }

  /** Runs the inverse of the last action (once). */
  async undo(): Promise<boolean> {
    const done = this.#done;
    if (!done || this.running) return false;
    this.#forgetUndo();
    this.running = true;
    this.error = undefined;
    const stopProgress = this.#progressAfter(`undoing ${doingOf(done.action)} ${subjectOf(done.before)}`);
    try {
      const restored = await undoBatch(this.#client, done.action, done.before, done.after, this.#onUpdated);
      this.message = `Undone: ${describeAction(done.action, restored.length, this.#userName).replace(/^./, (c) => c.toLowerCase())}`;
      this.#expire();
      return true;
    } catch (e) {
      this.error = failedWhile(e, `undoing ${doingOf(done.action)}`, subjectOf(done.before));
      return false;
    } finally {
      stopProgress();
      this.running = false;
    }
  }

  /** The pointer or the focus came onto the toast: it stays while they are there. */
  hold(): void {
    this.#held = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** They left: the toast goes UNDO_MS from now. */
  release(): void {
    this.#held = false;
    if (this.message || this.canUndo) this.#expire();
  }

  dismiss(): void {
    this.#forgetUndo();
    this.message = '';
    this.error = undefined;
  }

  /** The toast (and its undo) goes after UNDO_MS. */
  #expire(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#held) return;
    this.#timer = setTimeout(() => {
      this.#forgetUndo();
      this.message = '';
    }, UNDO_MS);
  }

  #forgetUndo(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#done = undefined;
    this.canUndo = false;
  }
}
