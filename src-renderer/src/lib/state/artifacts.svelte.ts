// The artifact view: filtered list with paging, the selected artifact with its
// versions and a text/JSON preview, download, upload and archive.
import type { Client } from '../../../../src-shared/client';
import { isFilterError, toErrorInfo, type ErrorInfo } from '../errors';
import {
  downloadArtifact,
  isPreviewable,
  listArtifacts,
  listArtifactVersions,
  previewText,
  setArtifactArchived,
  uploadArtifact,
  type Artifact,
  type ArtifactVersion,
} from '../services/artifactService';

export type ArtifactAction = 'upload' | 'archive' | 'download';

export class ArtifactWorkspace {
  filterText = $state('');
  includeArchived = $state(false);
  artifacts = $state<Artifact[]>([]);
  nextPageToken = $state('');
  loading = $state(false);
  loaded = $state(false);
  filterError = $state<ErrorInfo | undefined>();
  listError = $state<ErrorInfo | undefined>();

  selected = $state<Artifact | undefined>();
  versions = $state<ArtifactVersion[]>([]);
  versionsError = $state<ErrorInfo | undefined>();
  preview = $state<string | undefined>();
  previewError = $state<ErrorInfo | undefined>();
  pending = $state<ArtifactAction | undefined>();
  actionError = $state<ErrorInfo | undefined>();

  readonly #client: Client;
  #generation = 0;
  #selection = 0;

  constructor(client: Client) {
    this.#client = client;
  }

  async load(): Promise<void> {
    const generation = ++this.#generation;
    const query = { filter: this.filterText, includeArchived: this.includeArchived };
    this.loading = true;
    try {
      const page = await listArtifacts(this.#client, query);
      if (generation !== this.#generation) return;
      this.artifacts = page.artifacts;
      this.nextPageToken = page.nextPageToken;
      this.filterError = undefined;
      this.listError = undefined;
    } catch (e) {
      if (generation !== this.#generation) return;
      const info = toErrorInfo(e);
      this.artifacts = [];
      this.nextPageToken = '';
      if (query.filter.trim() && isFilterError(info)) {
        this.filterError = info;
        this.listError = undefined;
      } else {
        this.listError = info;
        this.filterError = undefined;
      }
    } finally {
      if (generation === this.#generation) {
        this.loading = false;
        this.loaded = true;
      }
    }
  }

  async loadMore(): Promise<void> {
    if (!this.nextPageToken || this.loading) return;
    const generation = this.#generation;
    this.loading = true;
    try {
      const page = await listArtifacts(this.#client, { filter: this.filterText, includeArchived: this.includeArchived }, this.nextPageToken);
      if (generation !== this.#generation) return;
      this.artifacts = [...this.artifacts, ...page.artifacts];
      this.nextPageToken = page.nextPageToken;
    } catch (e) {
      if (generation === this.#generation) this.listError = toErrorInfo(e);
    } finally {
      if (generation === this.#generation) this.loading = false;
    }
  }

  applyFilter(text: string): Promise<void> {
    this.filterText = text;
    return this.load();
  }

  setIncludeArchived(value: boolean): Promise<void> {
    this.includeArchived = value;
    return this.load();
  }

  async select(artifact: Artifact): Promise<void> {
    const selection = ++this.#selection;
    this.selected = artifact;
    this.versions = [];
    this.versionsError = undefined;
    this.preview = undefined;
    this.previewError = undefined;
    this.actionError = undefined;
    const versions = listArtifactVersions(this.#client, artifact.artifactId).then(
      (v) => selection === this.#selection && (this.versions = v),
      (e: unknown) => selection === this.#selection && (this.versionsError = toErrorInfo(e)),
    );
    const preview = isPreviewable(artifact)
      ? downloadArtifact(this.#client, artifact.artifactId).then(
          (bytes) => selection === this.#selection && (this.preview = previewText(bytes, artifact.fileType)),
          (e: unknown) => selection === this.#selection && (this.previewError = toErrorInfo(e)),
        )
      : Promise.resolve();
    await Promise.all([versions, preview]);
  }

  async #run<T>(action: ArtifactAction, run: () => Promise<T>): Promise<T | undefined> {
    if (this.pending) return undefined;
    this.pending = action;
    this.actionError = undefined;
    try {
      return await run();
    } catch (e) {
      this.actionError = toErrorInfo(e);
      return undefined;
    } finally {
      this.pending = undefined;
    }
  }

  /** The bytes of a version (current when omitted), for the view to save. */
  download(version?: number): Promise<Uint8Array | undefined> {
    const artifact = this.selected;
    if (!artifact) return Promise.resolve(undefined);
    return this.#run('download', () => downloadArtifact(this.#client, artifact.artifactId, version));
  }

  async upload(file: File, title: string): Promise<boolean> {
    const created = await this.#run('upload', () => uploadArtifact(this.#client, file, title));
    if (!created) return false;
    this.artifacts = [created, ...this.artifacts.filter((a) => a.artifactId !== created.artifactId)];
    await this.select(created);
    return true;
  }

  async setArchived(archived: boolean): Promise<void> {
    const artifact = this.selected;
    if (!artifact) return;
    const updated = await this.#run('archive', () => setArtifactArchived(this.#client, artifact.artifactId, archived));
    if (!updated) return;
    const i = this.artifacts.findIndex((a) => a.artifactId === updated.artifactId);
    if (i >= 0) this.artifacts[i] = updated;
    if (this.selected?.artifactId === updated.artifactId) this.selected = updated;
  }
}
