// Artifacts and their versions as a replicated resource (an Outpost
// extension; the platform has none: see NOTES.md here).
import type { Artifact } from '../../../../src-shared/api/artifacts';
import type { RecordKind, ReplicatedResource, UndoWrite } from '../../resource';
import { artifactRows, artifactVersionRows, renameLinkedAnnotation } from '../../../services/artifacts/artifactStore';
import { ANNOTATION } from '../annotations/apply';
import { ARTIFACT, parseLinkField, snapshotArtifact } from './apply';
import { applyPrepared, artifactsPuller } from './puller';
import { artifactSpecs } from './specs';
import { ARTIFACT_VERSION } from './versions';
import { keptPreLink } from '../../preLinkCount';

/** The losing archive state, or link (`link:<RELATION>:<ENTITY_TYPE>:<entity id>`, valued by the linked version id, null when absent). */
function undo(artifactId: string, field: string, value: unknown): UndoWrite | undefined {
  if (field === 'is_archived') return { operation: value ? 'ArchiveArtifact' : 'UnarchiveArtifact', request: { artifactId } };
  const link = parseLinkField(field);
  if (!link) return undefined;
  const target = { artifactId, ...link };
  return value === null
    ? { operation: 'UnlinkArtifact', request: target }
    : { operation: 'LinkArtifact', request: { ...target, artifactVersionId: value } };
}

const artifact: RecordKind = {
  resource: ARTIFACT,
  rows: artifactRows,
  merge: { snapshot: snapshotArtifact, undo },
  references: [{ to: ANNOTATION, column: 'artifact_links.entity_id', rewrite: renameLinkedAnnotation }],
  // With the versions and content the pull would fetch for it: its current version may be one added there since.
  refetch: {
    read: async (s, call, id) => {
      const { artifact: a } = await call('GetArtifact', { artifactId: id });
      await artifactsPuller.prepare!(s, [a]);
      return a;
    },
    apply: (s, a) => applyPrepared(s, a as Artifact, { force: true }),
  },
};

export const artifacts: ReplicatedResource = {
  name: 'artifacts',
  records: [artifact, { resource: ARTIFACT_VERSION, rows: artifactVersionRows }],
  specs: artifactSpecs,
  pullers: [artifactsPuller],
  preLink: [keptPreLink(ARTIFACT, 'artifacts', 'artifacts', 'they carry files: upload them again after the link')],
};
