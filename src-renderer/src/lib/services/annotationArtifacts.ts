// Artifacts attached to an annotation: the ATTACHED_TO links of artifacts
// whose entity is the annotation. Attaching is LinkArtifact (idempotent), for
// an artifact just uploaded or one that exists.
import type { Client } from '../../../../src-shared/client';
import { uploadArtifact, type Artifact } from './artifactService';
import { celString } from '../filter/quickFilters';

export function attachedFilter(annotationId: string): string {
  return `links.exists(l, l.relation == ATTACHED_TO && l.entity_type == ANNOTATION && l.entity_id == ${celString(annotationId)})`;
}

export async function listAttached(client: Client, annotationId: string): Promise<Artifact[]> {
  return (await client.ListArtifacts({ pageSize: 200, orderBy: 'created_date desc', filter: attachedFilter(annotationId) })).artifacts;
}

export async function attach(client: Client, artifactId: string, annotationId: string): Promise<Artifact> {
  return (
    await client.LinkArtifact({
      artifactId,
      relation: 'ARTIFACT_LINK_RELATION_ATTACHED_TO',
      entityType: 'ARTIFACT_ENTITY_TYPE_ANNOTATION',
      entityId: annotationId,
    })
  ).artifact;
}

export async function detach(client: Client, artifactId: string, annotationId: string): Promise<Artifact> {
  return (
    await client.UnlinkArtifact({
      artifactId,
      relation: 'ARTIFACT_LINK_RELATION_ATTACHED_TO',
      entityType: 'ARTIFACT_ENTITY_TYPE_ANNOTATION',
      entityId: annotationId,
    })
  ).artifact;
}

export async function uploadAndAttach(client: Client, file: File, annotationId: string): Promise<Artifact> {
  const artifact = await uploadArtifact(client, file, '');
  return attach(client, artifact.artifactId, annotationId);
}

/** Recent artifacts to choose from ("attach an existing one"). */
export async function listRecentArtifacts(client: Client): Promise<Artifact[]> {
  return (await client.ListArtifacts({ pageSize: 200, orderBy: 'created_date desc' })).artifacts;
}

/**
 * The artifact a reviewer named in "attach an existing one": by id, title or file name, newest first. Asked of the
 * engine, not of the suggestions list, so a name typed before the suggestions arrive (or uploaded since) is found.
 */
export async function findArtifactNamed(client: Client, name: string): Promise<Artifact | undefined> {
  const n = celString(name);
  const filter = `artifact_id == ${n} || title == ${n} || file_name == ${n}`;
  return (await client.ListArtifacts({ pageSize: 1, orderBy: 'created_date desc', filter })).artifacts[0];
}
