// The selected annotation: its freshest version, its activity history, and
// the review actions (state, assignee, tags, archive, comment). Every action
// is one API call; its error is kept and shown, and its result replaces the
// annotation here and (through onChange) in the list.
import type { Client } from '../../../../src-shared/client';
import { failedWhile, toErrorInfo, type ErrorInfo } from '../errors';
import {
  addComment,
  assignAnnotation,
  getAnnotation,
  listAllLogs,
  setAnnotationState,
  setAnnotationTags,
  setArchived,
  updateAnnotation,
  type Annotation,
  type AnnotationLog,
  type ReviewState,
} from '../services/annotationService';
import type { AnnotationEdit } from '../services/annotationEdit';

export type DetailAction = 'state' | 'assign' | 'tags' | 'archive' | 'unarchive' | 'comment' | 'edit';

/** Each action as the sentence of its failure names it ("… does not allow archiving 'Chamber pressure dip'"). */
const DOING: Record<DetailAction, string> = {
  state: 'changing the state of',
  assign: 'assigning',
  tags: 'changing the tags of',
  archive: 'archiving',
  unarchive: 'unarchiving',
  comment: 'commenting on',
  edit: 'saving the changes to',
};

export class AnnotationDetailState {
  annotation = $state<Annotation | undefined>();
  logs = $state<AnnotationLog[]>([]);
  logsTruncated = $state(false);
  loading = $state(false);
  logsLoading = $state(false);
  /** Loading the annotation failed. */
  error = $state<ErrorInfo | undefined>();
  /** Loading the history failed. */
  logsError = $state<ErrorInfo | undefined>();
  /** The last action failed (cleared when the next one starts). */
  actionError = $state<ErrorInfo | undefined>();
  /** The action in flight, if any. */
  pending = $state<DetailAction | undefined>();
  /** The editor of name, description, times and metadata is open (closed when another annotation opens). */
  editing = $state(false);

  readonly #client: Client;
  /** `elsewhere`: the new version was written by someone else (a live refresh), not by this window's edit. */
  readonly #onChange: (annotation: Annotation, elsewhere: boolean) => void;
  /** Bumped on every open(): results for a previously selected annotation are dropped. */
  #selection = 0;

  constructor(client: Client, onChange: (annotation: Annotation, elsewhere: boolean) => void = () => {}) {
    this.#client = client;
    this.#onChange = onChange;
  }

  get annotationId(): string | undefined {
    return this.annotation?.annotationId;
  }

  /** Shows `known` (the list row) at once, then loads the current version and the history. */
  async open(annotationId: string, known?: Annotation): Promise<void> {
    const selection = ++this.#selection;
    this.annotation = known;
    this.logs = [];
    this.logsTruncated = false;
    this.error = undefined;
    this.logsError = undefined;
    this.actionError = undefined;
    this.pending = undefined;
    this.editing = false;
    this.loading = true;
    const loadAnnotation = getAnnotation(this.#client, annotationId).then(
      (a) => {
        if (selection !== this.#selection) return;
        this.annotation = a;
        this.#onChange(a, false);
      },
      (e: unknown) => {
        if (selection === this.#selection) this.error = toErrorInfo(e);
      },
    );
    await Promise.all([
      loadAnnotation.finally(() => selection === this.#selection && (this.loading = false)),
      this.#loadLogs(annotationId, selection),
    ]);
  }

  /** A newer version changed elsewhere (a batch action): shown if it is the open one, with its history reread. */
  updated(annotation: Annotation): void {
    if (annotation.annotationId !== this.annotationId) return;
    this.annotation = annotation;
    void this.#loadLogs(annotation.annotationId);
  }

  /**
   * The open annotation changed elsewhere: its current version and history are read again and shown. Nothing the
   * user is typing lives here (the comment box and the editors keep their own text), so none of it is lost.
   */
  async refresh(): Promise<void> {
    const id = this.annotationId;
    if (!id || this.pending) return;
    const selection = this.#selection;
    const [annotation] = await Promise.all([getAnnotation(this.#client, id), this.#loadLogs(id, selection)]);
    if (selection !== this.#selection || this.pending) return;
    this.annotation = annotation;
    this.#onChange(annotation, true);
  }

  close(): void {
    this.#selection++;
    this.annotation = undefined;
    this.logs = [];
    this.error = undefined;
    this.logsError = undefined;
    this.actionError = undefined;
    this.pending = undefined;
    this.editing = false;
    this.loading = false;
    this.logsLoading = false;
  }

  async #loadLogs(annotationId: string, selection = this.#selection): Promise<void> {
    this.logsLoading = true;
    try {
      const { logs, truncated } = await listAllLogs(this.#client, annotationId);
      if (selection !== this.#selection) return;
      this.logs = logs;
      this.logsTruncated = truncated;
      this.logsError = undefined;
    } catch (e) {
      if (selection === this.#selection) this.logsError = toErrorInfo(e);
    } finally {
      if (selection === this.#selection) this.logsLoading = false;
    }
  }

  /** Runs one action against the open annotation; false when it failed or nothing is open. */
  async #act(action: DetailAction, run: (id: string) => Promise<Annotation | undefined>, refreshLogs: boolean): Promise<boolean> {
    const id = this.annotationId;
    if (!id || this.pending) return false;
    const selection = this.#selection;
    this.pending = action;
    this.actionError = undefined;
    try {
      const updated = await run(id);
      if (selection !== this.#selection) return true;
      if (updated) {
        this.annotation = updated;
        this.#onChange(updated, false);
      }
      if (refreshLogs) await this.#loadLogs(id, selection);
      return true;
    } catch (e) {
      if (selection === this.#selection)
        this.actionError = failedWhile(e, DOING[action], `'${this.annotation?.name ?? 'this annotation'}'`);
      return false;
    } finally {
      if (selection === this.#selection) this.pending = undefined;
    }
  }

  setState(state: ReviewState): Promise<boolean> {
    if (this.annotation?.state === state) return Promise.resolve(true);
    return this.#act('state', (id) => setAnnotationState(this.#client, id, state), true);
  }

  /** Assigns to a user id, or unassigns with ''. */
  assign(userId: string): Promise<boolean> {
    if (this.annotation?.assignedToUserId === userId) return Promise.resolve(true);
    return this.#act('assign', (id) => assignAnnotation(this.#client, id, userId), true);
  }

  setTags(tags: readonly string[]): Promise<boolean> {
    return this.#act('tags', (id) => setAnnotationTags(this.#client, id, tags), false);
  }

  addTags(names: readonly string[]): Promise<boolean> {
    const current = this.annotation?.tags ?? [];
    const added = names.filter((n) => !current.includes(n));
    if (added.length === 0) return Promise.resolve(true);
    return this.setTags([...current, ...added]);
  }

  removeTag(name: string): Promise<boolean> {
    const current = this.annotation?.tags ?? [];
    return this.setTags(current.filter((t) => t !== name));
  }

  setArchived(archived: boolean): Promise<boolean> {
    return this.#act(archived ? 'archive' : 'unarchive', (id) => setArchived(this.#client, id, archived), false);
  }

  /** Saves an edit (the editor's request: its mask names the fields that changed); true when saved. */
  edit(update: AnnotationEdit): Promise<boolean> {
    return this.#act(
      'edit',
      (id) => updateAnnotation(this.#client, { ...update, annotation: { ...update.annotation, annotationId: id } }),
      false,
    );
  }

  /** Posts a comment; true when it was saved (the caller clears its box). */
  comment(text: string): Promise<boolean> {
    const body = text.trim();
    if (!body) return Promise.resolve(false);
    return this.#act(
      'comment',
      async (id) => {
        const log = await addComment(this.#client, id, body);
        if (this.annotationId === id) this.logs = [...this.logs, log];
        return undefined;
      },
      false,
    );
  }
}
