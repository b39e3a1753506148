// The "try it" panel of the policies view: a user, a kind of record, a record
// found by name, an action; the engine's answer and its words. An answer
// belongs to the choices it was asked with: changing one clears it, and a
// late answer to older choices is dropped.
import type { Client } from '../../../../src-shared/client';
import { toErrorInfo, type ErrorInfo } from '../errors';
import {
  explainDecision,
  TRIAL_KINDS,
  verdictOf,
  type PolicyDecisionExplanation,
  type TrialAction,
  type TrialKind,
  type TrialRecord,
  type TrialVerdict,
} from '../services/policyTrial';

export class PolicyTrial {
  kind = $state<TrialKind>(TRIAL_KINDS[0]);
  userId = $state('');
  action = $state<TrialAction>(TRIAL_KINDS[0].actions[0]);
  query = $state('');
  results = $state<TrialRecord[]>([]);
  searching = $state(false);
  searchError = $state<ErrorInfo | undefined>();
  record = $state<TrialRecord | undefined>();
  answer = $state<PolicyDecisionExplanation | undefined>();
  error = $state<ErrorInfo | undefined>();
  pending = $state(false);

  readonly #client: Client;
  #search = 0;
  #ask = 0;

  constructor(client: Client) {
    this.#client = client;
  }

  get ready(): boolean {
    return this.userId !== '' && this.record !== undefined && !this.pending;
  }

  #clearAnswer(): void {
    this.#ask++;
    this.answer = undefined;
    this.error = undefined;
    this.pending = false;
  }

  setUser(userId: string): void {
    this.userId = userId;
    this.#clearAnswer();
  }

  setKind(id: string): Promise<void> {
    const kind = TRIAL_KINDS.find((k) => k.id === id);
    if (!kind || kind === this.kind) return Promise.resolve();
    this.kind = kind;
    this.action = kind.actions[0];
    this.record = undefined;
    this.#clearAnswer();
    return this.search(this.query);
  }

  setAction(name: string): void {
    this.action = this.kind.actions.find((a) => a.action === name) ?? this.kind.actions[0];
    this.#clearAnswer();
  }

  /** Records of the current kind whose name holds `text`; a later search wins over an earlier one. */
  async search(text: string): Promise<void> {
    this.query = text;
    const search = ++this.#search;
    const kind = this.kind;
    this.searching = true;
    try {
      const results = await kind.search(this.#client, text);
      if (search !== this.#search) return;
      this.results = results;
      this.searchError = undefined;
    } catch (e) {
      if (search === this.#search) this.searchError = toErrorInfo(e);
    } finally {
      if (search === this.#search) this.searching = false;
    }
  }

  pick(record: TrialRecord): void {
    this.record = record;
    this.#clearAnswer();
  }

  /** Asks the engine what its policies decide for the chosen user, action and record. */
  async check(): Promise<void> {
    const record = this.record;
    if (!this.userId || !record) return;
    const ask = ++this.#ask;
    this.pending = true;
    this.error = undefined;
    try {
      const answer = await explainDecision(this.#client, { userId: this.userId, action: this.action.action, resourceId: record.id });
      if (ask === this.#ask) this.answer = answer;
    } catch (e) {
      if (ask === this.#ask) this.error = toErrorInfo(e);
    } finally {
      if (ask === this.#ask) this.pending = false;
    }
  }

  /** The answer in words, with `userName` for the chosen user. */
  verdict(userName: string): TrialVerdict | undefined {
    if (!this.answer || !this.record) return undefined;
    return verdictOf(this.answer, { user: userName, record: this.record.name, action: this.action, kind: this.kind });
  }
}
