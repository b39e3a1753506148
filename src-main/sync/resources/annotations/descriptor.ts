// Annotations as a replicated resource: what the generic sync core needs of
// them, assembled from this folder (see NOTES.md here for their notes).
import type { Annotation } from '../../../../src-shared/api/annotations';
import type { RecordKind, ReplicatedResource } from '../../resource';
import { undoOf } from '../../recordShape';
import { annotationRows } from '../../../services/annotations/annotationStore';
import { applyRemoteAnnotations, snapshotAnnotation } from './apply';
import { ANNOTATION, ANNOTATION_SHAPE } from './shape';
import { archiveDuplicates } from './duplicates';
import { annotationsPuller } from './puller';
import { annotationSpecs } from './specs';
import { preLinkAnnotations } from './preLink';

const annotation: RecordKind = {
  resource: ANNOTATION,
  rows: annotationRows,
  merge: { snapshot: snapshotAnnotation, undo: undoOf(ANNOTATION_SHAPE) },
  refetch: {
    read: async (_s, call, id) => (await call('GetAnnotation', { annotationId: id })).annotation,
    apply: (s, a) => applyRemoteAnnotations(s.applier, [a as Annotation], { force: true }),
  },
};

export const annotations: ReplicatedResource = {
  name: 'annotations',
  records: [annotation],
  specs: annotationSpecs,
  pullers: [annotationsPuller],
  afterPull: archiveDuplicates,
  preLink: [preLinkAnnotations],
};
