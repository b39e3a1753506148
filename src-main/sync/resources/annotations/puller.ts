// Pulls annotations (archives arrive as state: archived_date / is_archived).
import type { AnnotationLog } from '../../../../src-shared/api/annotationLogs';
import type { Annotation } from '../../../../src-shared/api/annotations';
import { changedBy } from '../../apply';
import { callWithRetry, perOrganization, type Puller } from '../../pull';
import { applyRemoteAnnotations, createAwaitingAdoption } from './apply';
import { ANNOTATION } from './shape';
import { ANNOTATION_TABLES } from '../../../services/annotations/annotationStore';
import { historyEchoes } from './specs';
import { wireMicros } from '../../time';

/** A page's history-log lookups (prepare), for its apply: by annotation id. */
type Echoes = Map<string, AnnotationLog[]>;

export const annotationsPuller: Puller<Annotation, Echoes | undefined> = {
  resource: 'annotations',
  collisions: { table: 'annotations', kind: ANNOTATION },
  readAgain: { whileEditsOf: ANNOTATION },
  operation: 'ListAnnotations',
  listField: 'annotations',
  listing: { by: 'modified_date', orderable: true, bulkLoad: { tables: ANNOTATION_TABLES, liveIndexes: ['annotations_org_modified'] } },
  idOf: (a) => a.annotationId,
  variants: perOrganization,
  /**
   * An offline create of ours whose answer was lost arrives here before the push found it: the page adopts it by its
   * marker. Its history logs then adopt the ones the remote wrote (looked up now, outside the page's transaction),
   * so the logs' pull does not report our own change as received.
   */
  async prepare(s, items) {
    const ctx = {
      call: (op: string, req: Record<string, unknown>) => callWithRetry(s, op, req),
      features: s.features,
      userId: s.identity.userId,
      clockOffset: s.remote.clockOffset(),
    };
    const echoes: Echoes = new Map();
    for (const a of items) {
      const entry = createAwaitingAdoption(s.db, a);
      if (entry) echoes.set(a.annotationId, await historyEchoes(ctx, entry, a.annotationId, wireMicros(a.modifiedDate) ?? Infinity));
    }
    return echoes.size > 0 ? echoes : undefined;
  },
  /** Counts annotations inserted or changed here (an unchanged re-read, e.g. in the overlap window, counts 0). */
  apply(s, items, _variant, loaded, echoes) {
    return changedBy(s.applier.stats, () => applyRemoteAnnotations(s.applier, items, { loaded, echoes }));
  },
};
