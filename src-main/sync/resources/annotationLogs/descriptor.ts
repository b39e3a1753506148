// Annotation logs as a replicated resource (see NOTES.md here). They are
// also the side-effect records of annotation writes: the history logs a local
// create or update appends, which the remote writes its own of.
import type { ReplicatedResource } from '../../resource';
import { ANNOTATION_LOG, deleteSideEffectLogs } from '../annotations/historyLogs';
import { annotationLogRows, moveAnnotationLogs } from '../../../services/annotations/annotationLogStore';
import { ANNOTATION } from '../annotations/apply';
import { annotationLogDeletionsPuller } from './deletionsPuller';
import { annotationLogsPuller } from './puller';
import { annotationLogSpecs } from './specs';

export const annotationLogs: ReplicatedResource = {
  name: 'annotation_logs',
  records: [
    // (No name: the writes that target a log target its annotation too.)
    {
      resource: ANNOTATION_LOG,
      rows: annotationLogRows,
      references: [{ to: ANNOTATION, column: 'annotation_logs.annotation_id', rewrite: moveAnnotationLogs }],
      sideEffects: {
        mark: (db) => db.get<{ pk: number | null }>('SELECT max(pk) AS pk FROM annotation_logs')?.pk ?? 0,
        since: (db, mark) => db.all<{ id: string }>('SELECT id FROM annotation_logs WHERE pk > ? ORDER BY pk', [mark]).map((r) => r.id),
        delete: deleteSideEffectLogs,
      },
    },
  ],
  specs: annotationLogSpecs,
  pullers: [annotationLogsPuller, annotationLogDeletionsPuller],
  // (Adopted with their annotation: its comments go in the create, and the remote writes its own history logs.)
  preLink: [],
};
