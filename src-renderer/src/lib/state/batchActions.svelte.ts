// The batch action just run and its undo: the action's words and count for
// the toast, and for a few seconds the undo (the records it changed, each back
// to its own earlier value, in one engine call). A new action replaces
// the undo of the last one. A toast goes after UNDO_MS (with its undo), counted again from when the pointer or
// the focus leaves it (no one loses an undo while reaching for it); an error stays until dismissed.
import type { Client } from '../../../../src-shared/client';
import { failedWhile, type ErrorInfo } from '../errors';
import {
  applyBatch,
  changedSubject,
  describeAction,
  doingOf,
  sizeOf,
  subjectOf,
  undoBatch,
  type Applied,
  type BatchAction,
  type BatchTarget,
} from '../services/batchService';

export const UNDO_MS = 8000;
/** A batch quicker than this shows no progress (it would only flicker). */
export const PROGRESS_AFTER_MS = 250;

interface Done {
  readonly action: BatchAction;
  readonly target: BatchTarget;
  readonly applied: readonly Applied[];
}

/** Told what a batch (or its undo) changed: each record and the change made on it. */
export type OnApplied = (applied: readonly Applied[]) => void;

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
  readonly #onApplied: OnApplied;
  readonly #userName: (id: string) => string;
  #done: Done | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The pointer or the focus is on the toast. */
  #held = false;

  constructor(client: Client, onApplied: OnApplied, userName: (id: string) => string = (id) => id) {
    this.#client = client;
    this.#onApplied = onApplied;
    this.#userName = userName;
  }

  /** Runs `action` on its target in one engine call; returns what it changed (false when it failed: nothing changed). */
  async run(action: BatchAction, target: BatchTarget): Promise<readonly Applied[] | false> {
    if (this.running || !sizeOf(target)) return false;
    this.#forgetUndo();
    this.error = undefined;
    this.running = true;
    const stopProgress = this.#progressAfter(`${doingOf(action)} ${subjectOf(target)}`);
    try {
      const applied = await applyBatch(this.#client, action, target);
      if (!applied.length) {
        this.message = `Nothing to change (${sizeOf(target).toLocaleString()} already so)`;
      } else {
        this.#onApplied(applied);
        this.#done = { action, target, applied };
        this.message = describeAction(action, applied.length, this.#userName);
        this.canUndo = true;
      }
      this.#expire();
      return applied;
    } catch (e) {
      // One transaction: a refused or failed batch changed nothing, so there is nothing to undo.
      this.error = failedWhile(e, doingOf(action), subjectOf(target));
      this.message = '';
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

  /** Restores exactly the records the last action changed, each to its own earlier value (once, one engine call). */
  async undo(): Promise<boolean> {
    const done = this.#done;
    if (!done || this.running) return false;
    this.#forgetUndo();
    this.running = true;
    this.error = undefined;
    const subject = changedSubject(done.target, done.applied);
    const stopProgress = this.#progressAfter(`undoing ${doingOf(done.action)} ${subject}`);
    try {
      const restored = await undoBatch(this.#client, done.applied);
      this.#onApplied(restored);
      this.message = `Undone: ${describeAction(done.action, restored.length, this.#userName).replace(/^./, (c) => c.toLowerCase())}`;
      this.#expire();
      return true;
    } catch (e) {
      this.error = failedWhile(e, `undoing ${doingOf(done.action)}`, subject);
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
