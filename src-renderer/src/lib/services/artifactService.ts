// Artifacts (files and JSON documents attached to annotations, runs, assets,
// test reports) as the artifact view uses them.
import type { Artifact, ArtifactVersion, UploadedFileInput } from '../../../../src-shared/api/artifacts';
import type { Client } from '../../../../src-shared/client';

export type { Artifact, ArtifactVersion };

export const ARTIFACT_PAGE_SIZE = 50;

/** The filter sent: the user's expression, plus `include_archived` when archived ones are wanted. */
export function artifactFilter(text: string, includeArchived: boolean): string {
  const expr = text.trim();
  if (!includeArchived) return expr;
  return expr ? `include_archived && (${expr})` : 'include_archived';
}

export interface ArtifactQuery {
  /** The user's CEL expression. */
  readonly filter: string;
  readonly includeArchived: boolean;
}

export async function listArtifacts(
  client: Client,
  query: ArtifactQuery,
  pageToken?: string,
): Promise<{ artifacts: Artifact[]; nextPageToken: string }> {
  const filter = artifactFilter(query.filter, query.includeArchived);
  const res = await client.ListArtifacts({
    pageSize: ARTIFACT_PAGE_SIZE,
    orderBy: 'created_date desc',
    ...(filter ? { filter } : {}),
    ...(pageToken ? { pageToken } : {}),
  });
  return { artifacts: res.artifacts, nextPageToken: res.nextPageToken };
}

/** One artifact by id (the palette and the address open one that is not listed yet). */
export async function getArtifact(client: Client, artifactId: string): Promise<Artifact> {
  return (await client.GetArtifact({ artifactId })).artifact;
}

export async function listArtifactVersions(client: Client, artifactId: string): Promise<ArtifactVersion[]> {
  const versions: ArtifactVersion[] = [];
  let pageToken: string | undefined;
  do {
    const res = await client.ListArtifactVersions({ artifactId, pageSize: 200, ...(pageToken ? { pageToken } : {}) });
    versions.push(...res.artifactVersions);
    pageToken = res.nextPageToken || undefined;
  } while (pageToken && versions.length < 1000);
  return versions;
}

/** The content of the current version (or `version`) as bytes. */
export async function downloadArtifact(client: Client, artifactId: string, version?: number): Promise<Uint8Array> {
  const data: unknown = await client.DownloadArtifactContent({ artifactId, ...(version ? { version } : {}) });
  if (!(data instanceof Uint8Array)) throw new Error('the download did not return bytes');
  return data;
}

/**
 * Uploads a browser File as a new artifact. The contract types `file` as the
 * server-side upload record; each transport sends the File's content instead
 * (multipart over HTTP, bytes over IPC), so it is passed through as is.
 */
export async function uploadArtifact(client: Client, file: File, title: string): Promise<Artifact> {
  const res = await client.UploadArtifact({ file: file as unknown as UploadedFileInput, ...(title.trim() ? { title: title.trim() } : {}) });
  return res.artifact;
}

export async function setArtifactArchived(client: Client, artifactId: string, archived: boolean): Promise<Artifact> {
  const res = archived ? await client.ArchiveArtifact({ artifactId }) : await client.UnarchiveArtifact({ artifactId });
  return res.artifact;
}

/** Shown inline: JSON and text up to this size. */
export const PREVIEW_LIMIT_BYTES = 256 * 1024;

export function isPreviewable(a: Pick<Artifact, 'mimeType' | 'fileType' | 'sizeBytes'>): boolean {
  const textual = a.fileType === 'json' || a.mimeType.startsWith('text/') || /json|xml|csv|yaml/.test(a.mimeType);
  return textual && Number(a.sizeBytes) <= PREVIEW_LIMIT_BYTES;
}

/** Text for the preview pane (JSON pretty-printed). */
export function previewText(bytes: Uint8Array, fileType: string): string {
  const text = new TextDecoder().decode(bytes);
  if (fileType !== 'json') return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** 1536 -> `1.5 KB`. */
export function formatBytes(value: string | number): string {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) return String(value);
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}
