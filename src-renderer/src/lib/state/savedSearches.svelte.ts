// The saved-search view: list, rename, delete.
import type { Client } from '../../../../src-shared/client';
import { failedWhile, toErrorInfo, type ErrorInfo } from '../errors';
import { deleteSavedSearch, listSavedSearches, renameSavedSearch, type SavedSearch } from '../services/savedSearchService';

export class SavedSearchList {
  searches = $state<SavedSearch[]>([]);
  loading = $state(false);
  loaded = $state(false);
  error = $state<ErrorInfo | undefined>();
  /** id of the search an action is running on. */
  pendingId = $state<string | undefined>();
  actionError = $state<ErrorInfo | undefined>();

  readonly #client: Client;

  constructor(client: Client) {
    this.#client = client;
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      this.searches = await listSavedSearches(this.#client);
      this.error = undefined;
    } catch (e) {
      this.error = toErrorInfo(e);
    } finally {
      this.loading = false;
      this.loaded = true;
    }
  }

  /** Runs one action on a search; its failure names what was being done to which search. */
  async #act(id: string, verb: string, run: () => Promise<void>): Promise<boolean> {
    if (this.pendingId) return false;
    this.pendingId = id;
    this.actionError = undefined;
    try {
      await run();
      return true;
    } catch (e) {
      const name = this.searches.find((s) => s.savedSearchId === id)?.name;
      this.actionError = failedWhile(e, verb, name ? `'${name}'` : 'the saved search');
      return false;
    } finally {
      this.pendingId = undefined;
    }
  }

  rename(id: string, name: string): Promise<boolean> {
    return this.#act(id, 'renaming', async () => {
      const updated = await renameSavedSearch(this.#client, id, name);
      this.searches = this.searches.map((s) => (s.savedSearchId === id ? updated : s));
    });
  }

  remove(id: string): Promise<boolean> {
    return this.#act(id, 'deleting', async () => {
      await deleteSavedSearch(this.#client, id);
      this.searches = this.searches.filter((s) => s.savedSearchId !== id);
    });
  }
}
