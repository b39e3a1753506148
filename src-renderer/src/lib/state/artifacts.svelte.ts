// The artifact view: filtered list with paging, the selected artifact with its
// versions and a text/JSON preview, download, upload and archive.
import type { Client } from '../../../../src-shared/client';
import { failedWhile, toErrorInfo, type ErrorInfo } from '../errors';
import {
  getArtifact,
  downloadArtifact,
  isPreviewable,
  listArtifacts,
  listArtifactVersions,
  previewText,
  setArtifactArchived,
  uploadArtifact,
  type Artifact,
  type ArtifactQuery,
  type ArtifactVersion,
} from '../services/artifactService';
import { PagedList } from './pagedList.svelte';

export type ArtifactAction = 'upload' | 'archive' | 'download';

export class ArtifactWorkspace {
  filterText = $state('');
  includeArchived = $state(false);
  readonly list: PagedList<Artifact, ArtifactQuery>;

  selected = $state<Artifact | undefined>();
  versions = $state<ArtifactVersion[]>([]);
  versionsError = $state<ErrorInfo | undefined>();
  preview = $state<string | undefined>();
  previewError = $state<ErrorInfo | undefined>();
  pending = $state<ArtifactAction | undefined>();
  actionError = $state<ErrorInfo | undefined>();

  readonly #client: Client;
  #selection = 0;

  constructor(client: Client) {
    this.#client = client;
    this.list = new PagedList({
      fetchPage: (query, pageToken) =>
        listArtifacts(client, query, pageToken).then((p) => ({ items: p.artifacts, nextPageToken: p.nextPageToken })),
      keyOf: (a) => a.artifactId,
      filterOf: (query) => query.filter,
    });
  }

  load(): Promise<void> {
    return this.list.load({ filter: this.filterText, includeArchived: this.includeArchived });
  }

  applyFilter(text: string): Promise<void> {
    this.filterText = text;
    return this.load();
  }

  setIncludeArchived(value: boolean): Promise<void> {
    this.includeArchived = value;
    return this.load();
  }

  /** Opens the artifact `id` (the address or the palette named it): the listed one, else read by id. */
  async openById(id: string): Promise<void> {
    await this.select(this.list.get(id) ?? (await getArtifact(this.#client, id)));
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

  /** Runs one action; its failure names what was being done to which artifact (`doing`: "archiving", "'Pressure trace'"). */
  async #run<T>(action: ArtifactAction, run: () => Promise<T>, doing: readonly [verb: string, subject: string]): Promise<T | undefined> {
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

  /** The bytes of a version (current when omitted), for the view to save. */
  download(version?: number): Promise<Uint8Array | undefined> {
    const artifact = this.selected;
    if (!artifact) return Promise.resolve(undefined);
    return this.#run('download', () => downloadArtifact(this.#client, artifact.artifactId, version), [
      'downloading',
      `'${artifact.title || artifact.fileName}'`,
    ]);
  }

  async upload(file: File, title: string): Promise<boolean> {
    const created = await this.#run('upload', () => uploadArtifact(this.#client, file, title), ['uploading', `'${file.name}'`]);
    if (!created) return false;
    this.list.insert(created);
    await this.select(created);
    return true;
  }

  async setArchived(archived: boolean): Promise<void> {
    const artifact = this.selected;
    if (!artifact) return;
    const updated = await this.#run('archive', () => setArtifactArchived(this.#client, artifact.artifactId, archived), [
      archived ? 'archiving' : 'unarchiving',
      `'${artifact.title || artifact.fileName}'`,
    ]);
    if (!updated) return;
    this.list.replace(updated);
    if (this.selected?.artifactId === updated.artifactId) this.selected = updated;
  }
}
