// The policy view: the list, the selected policy's Cedar editor (draft,
// validation, save as a new version, revert), its version history and a line
// diff between two of its versions.
import type { Client } from '../../../../src-shared/client';
import { lineDiff, type DiffLine } from '../../../../src-shared/lineDiff';
import { failedWhile, toErrorInfo, type ErrorInfo } from '../errors';
import {
  getPolicy,
  createPolicy,
  listPolicies,
  listVersions,
  savePolicyText,
  setPolicyArchived,
  validatePolicyText,
  type Policy,
  type PolicyVersion,
  type Validation,
} from '../services/policyService';
import { PagedList } from './pagedList.svelte';

export type PolicyAction = 'validate' | 'save' | 'archive' | 'create';

export class PolicyWorkspace {
  includeArchived = $state(false);
  readonly list: PagedList<Policy, boolean>;

  selected = $state<Policy | undefined>();
  draft = $state('');
  versionNotes = $state('');
  validation = $state<Validation | undefined>();
  versions = $state<PolicyVersion[]>([]);
  versionsLoading = $state(false);
  versionsError = $state<ErrorInfo | undefined>();
  /** A version shown read-only next to the editor. */
  viewedVersion = $state<PolicyVersion | undefined>();
  /** Two versions compared (their ids: the earlier text, the later one). */
  compare = $state<{ readonly from: string; readonly to: string } | undefined>();
  pending = $state<PolicyAction | undefined>();
  actionError = $state<ErrorInfo | undefined>();
  createError = $state<ErrorInfo | undefined>();

  dirty = $derived(this.selected !== undefined && this.draft !== this.selected.configuration.cedarPolicy);

  /** The compared versions and the line diff from one to the other (when both are in the history). */
  comparison = $derived.by((): { from: PolicyVersion; to: PolicyVersion; lines: DiffLine[] } | undefined => {
    const from = this.versions.find((v) => v.policyVersionId === this.compare?.from);
    const to = this.versions.find((v) => v.policyVersionId === this.compare?.to);
    if (!from || !to) return undefined;
    return { from, to, lines: lineDiff(from.configuration.cedarPolicy, to.configuration.cedarPolicy) };
  });

  readonly #client: Client;
  #selection = 0;

  constructor(client: Client) {
    this.#client = client;
    // Policies have no filter box: the query is whether archived ones are listed too.
    this.list = new PagedList({
      fetchPage: (includeArchived, pageToken) =>
        listPolicies(client, includeArchived, pageToken).then((p) => ({ items: p.policies, nextPageToken: p.nextPageToken })),
      keyOf: (p) => p.policyId,
    });
  }

  load(): Promise<void> {
    return this.list.load(this.includeArchived);
  }

  /**
   * The list read again after policies changed elsewhere; the open policy shows its newer version, and its text
   * too unless the user has edited the draft (typed text is never replaced).
   */
  async refresh(): Promise<void> {
    await this.list.refresh();
    const open = this.selected && this.list.get(this.selected.policyId);
    if (!open || !this.selected || open === this.selected || this.pending) return;
    const clean = !this.dirty;
    this.selected = open;
    if (clean) this.draft = open.configuration.cedarPolicy;
  }

  setIncludeArchived(value: boolean): Promise<void> {
    this.includeArchived = value;
    return this.load();
  }

  /** Opens the policy `id` (the address or the palette named it): the listed one, else read by id. */
  async openById(id: string): Promise<void> {
    await this.select(this.list.get(id) ?? (await getPolicy(this.#client, id)));
  }

  /** Opens a policy in the editor (its current text) and loads its history. */
  async select(policy: Policy): Promise<void> {
    const selection = ++this.#selection;
    this.selected = policy;
    this.draft = policy.configuration.cedarPolicy;
    this.versionNotes = '';
    this.validation = undefined;
    this.viewedVersion = undefined;
    this.compare = undefined;
    this.actionError = undefined;
    this.versions = [];
    await this.#loadVersions(policy.policyId, selection);
  }

  async #loadVersions(policyId: string, selection: number): Promise<void> {
    this.versionsLoading = true;
    try {
      const versions = await listVersions(this.#client, policyId);
      if (selection !== this.#selection) return;
      this.versions = versions;
      this.versionsError = undefined;
    } catch (e) {
      if (selection === this.#selection) this.versionsError = toErrorInfo(e);
    } finally {
      if (selection === this.#selection) this.versionsLoading = false;
    }
  }

  setDraft(text: string): void {
    this.draft = text;
    this.validation = undefined;
  }

  revert(): void {
    if (this.selected) this.setDraft(this.selected.configuration.cedarPolicy);
  }

  viewVersion(version: PolicyVersion | undefined): void {
    this.viewedVersion = version;
  }

  /** Compares two versions by id (`from` the earlier text, `to` the later one). */
  compareVersions(from: string, to: string): void {
    this.compare = { from, to };
  }

  /** Compares a version with the one before it (the first version: with itself), as a history opens a diff. */
  compareWithPrevious(version: PolicyVersion): void {
    const i = this.versions.findIndex((v) => v.policyVersionId === version.policyVersionId);
    const previous = this.versions[i + 1] ?? version;
    this.compare = { from: previous.policyVersionId, to: version.policyVersionId };
  }

  closeCompare(): void {
    this.compare = undefined;
  }

  /** Puts an old version's text in the editor (saving it makes a new version). */
  restoreVersion(version: PolicyVersion): void {
    this.setDraft(version.configuration.cedarPolicy);
    this.versionNotes = `Restore version ${version.version}`;
  }

  /** Runs one action; its failure names what was being done to which policy (`doing`: "archiving", "'No archiving'"). */
  async #run<T>(action: PolicyAction, run: () => Promise<T>, doing: readonly [verb: string, subject: string]): Promise<T | undefined> {
    if (this.pending) return undefined;
    this.pending = action;
    this.actionError = undefined;
    try {
      return await run();
    } catch (e) {
      this.actionError = failedWhile(e, ...doing);
      return undefined;
    } finally {
      this.pending = undefined;
    }
  }

  async validate(): Promise<void> {
    const text = this.draft;
    const result = await this.#run('validate', () => validatePolicyText(this.#client, text), [
      'checking',
      `the text of '${this.selected?.name ?? 'the policy'}'`,
    ]);
    if (result && this.draft === text) this.validation = result;
  }

  /** Saves the draft as a new version; true on success. */
  async save(): Promise<boolean> {
    const policy = this.selected;
    if (!policy || !this.dirty) return false;
    const selection = this.#selection;
    const saved = await this.#run('save', () => savePolicyText(this.#client, policy.policyId, this.draft, this.versionNotes), [
      'saving',
      `'${policy.name}'`,
    ]);
    if (!saved || selection !== this.#selection) return false;
    this.list.replace(saved);
    this.selected = saved;
    this.draft = saved.configuration.cedarPolicy;
    this.versionNotes = '';
    this.validation = undefined;
    await this.#loadVersions(saved.policyId, selection);
    return true;
  }

  async setArchived(archived: boolean): Promise<void> {
    const policy = this.selected;
    if (!policy) return;
    const updated = await this.#run('archive', () => setPolicyArchived(this.#client, policy.policyId, archived), [
      archived ? 'archiving' : 'unarchiving',
      `'${policy.name}'`,
    ]);
    if (!updated) return;
    this.list.replace(updated);
    if (this.selected?.policyId === updated.policyId) this.selected = updated;
  }

  /** Creates a policy and opens it; false when the API rejected it (see createError). */
  async create(name: string, cedarPolicy: string): Promise<boolean> {
    if (this.pending) return false;
    this.pending = 'create';
    this.createError = undefined;
    let created: Policy;
    try {
      created = await createPolicy(this.#client, name.trim(), cedarPolicy);
    } catch (e) {
      this.createError = failedWhile(e, 'creating', `'${name.trim()}'`);
      return false;
    } finally {
      this.pending = undefined;
    }
    this.list.insert(created, (a, b) => a.name.localeCompare(b.name));
    await this.select(created);
    return true;
  }
}
