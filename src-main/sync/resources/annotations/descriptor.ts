// Annotations as a replicated resource: what the generic sync core needs of
// them, assembled from this folder (see NOTES.md here for their notes).
import { CreateAnnotationRequest, type Annotation } from '../../../../src-shared/api/annotations';
import { getAnnotation } from '../../../services/annotations/annotationsService';
import type { RecordKind, ReplicatedResource } from '../../resource';
import { annotationRows } from '../../../services/annotations/annotationStore';
import { ANNOTATION, applyRemoteAnnotations, snapshotAnnotation } from './apply';
import { archiveDuplicates } from './duplicates';
import { annotationsPuller } from './puller';
import { annotationSpecs } from './specs';
import { undoAnnotationField } from './undo';
import { preLinkAnnotations } from './preLink';

const annotation: RecordKind = {
  resource: ANNOTATION,
  rows: annotationRows,
  nameColumn: 'name',
  merge: { snapshot: snapshotAnnotation, undo: undoAnnotationField },
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
  refusedCreates: {
    // Retry sends the annotation as it is now; Discard deletes it with its tags, assets, channels, metadata and logs.
    CreateAnnotation: {
      rebuild(ctx, id) {
        const { annotation: a } = getAnnotation(ctx, id);
        // The create names assets (the record holds their ids, in order) and assigns with assign_to_user_id.
        const assets = ctx.db
          .all<{ name: string }>('SELECT s.name FROM json_each(?) j JOIN assets s ON s.id = j.value ORDER BY j.key', [
            JSON.stringify(a.assetIds),
          ])
          .map((r) => r.name);
        return CreateAnnotationRequest.parse({
          ...a,
          assets,
          assignToUserId: a.assignedToUserId || undefined,
          // (The review state is what the record has; a phase has none.)
          state: a.state === 'ANNOTATION_STATE_UNSPECIFIED' ? undefined : a.state,
        });
      },
    },
  },
  preLink: [preLinkAnnotations],
};
