// Reference data the annotation views share: people (assignment choices and
// names in the history), the local user, tag names (suggestions), asset and run names. Loaded
// once; each part fails on its own and keeps its error.
import type { Client } from '../../../../src-shared/client';
import { toErrorInfo, type ErrorInfo } from '../errors';
import { listAssetNames, listPeople, listRunNames, listTagNames, whoAmI, type Person } from '../services/directoryService';

export class DirectoryState {
  people = $state<Person[]>([]);
  me = $state<Person | undefined>();
  tagNames = $state<string[]>([]);
  assetNames = $state<ReadonlyMap<string, string>>(new Map());
  runNames = $state<ReadonlyMap<string, string>>(new Map());
  peopleError = $state<ErrorInfo | undefined>();
  tagsError = $state<ErrorInfo | undefined>();
  /** Asset or run names could not be listed: views show ids and this message. */
  assetsError = $state<ErrorInfo | undefined>();
  /** user id -> user name, for people and me. */
  userNames = $derived(new Map([...this.people, ...(this.me ? [this.me] : [])].map((p) => [p.userId, p.userName])));

  readonly #client: Client;

  constructor(client: Client) {
    this.#client = client;
  }

  async load(): Promise<void> {
    await Promise.all([this.loadPeople(), this.loadTags(), this.loadNames()]);
  }

  /** People (assignment choices, names of authors) and the local user. */
  async loadPeople(): Promise<void> {
    await Promise.all([
      listPeople(this.#client).then(
        (people) => ((this.people = people), (this.peopleError = undefined)),
        (e: unknown) => (this.peopleError = toErrorInfo(e)),
      ),
      whoAmI(this.#client).then(
        (me) => (this.me = me),
        (e: unknown) => (this.peopleError ??= toErrorInfo(e)),
      ),
    ]);
  }

  async loadTags(): Promise<void> {
    await listTagNames(this.#client).then(
      (names) => ((this.tagNames = names), (this.tagsError = undefined)),
      (e: unknown) => (this.tagsError = toErrorInfo(e)),
    );
  }

  /** Asset and run names (annotations and reports carry ids). */
  async loadNames(): Promise<void> {
    await Promise.all([
      listAssetNames(this.#client).then(
        (names) => ((this.assetNames = names), (this.assetsError = undefined)),
        (e: unknown) => (this.assetsError = toErrorInfo(e)),
      ),
      listRunNames(this.#client).then(
        (names) => (this.runNames = names),
        (e: unknown) => (this.assetsError ??= toErrorInfo(e)),
      ),
    ]);
  }

  /** Remembers tag names that were just used (new tags are created on first use). */
  rememberTags(names: readonly string[]): void {
    const missing = names.filter((n) => !this.tagNames.includes(n));
    if (missing.length) this.tagNames = [...this.tagNames, ...missing].sort((a, b) => a.localeCompare(b));
  }
}
