// Pulls annotations (archives arrive as state: archived_date / is_archived).
import type { Annotation } from '../../../src-shared/api/annotations';
import { changedBy } from '../apply';
import { perOrganization, timeOfField, type Puller } from '../pull';

export const annotationsPuller: Puller<Annotation> = {
  resource: 'annotations',
  operation: 'ListAnnotations',
  listField: 'annotations',
  mode: 'modified',
  bulkTables: ['annotations', 'annotation_tags', 'annotation_assets', 'annotation_linked_channels', 'annotation_metadata'],
  liveIndexes: ['annotations_org_modified'],
  tracksLoadedIds: true,
  orderable: true,
  timeOf: timeOfField('modifiedDate'),
  idOf: (a) => a.annotationId,
  variants: perOrganization,
  /** Counts annotations inserted or changed here (an unchanged re-read, e.g. in the overlap window, counts 0). */
  apply(s, items, _variant, loaded) {
    return changedBy(s.applier.stats, () => s.applier.annotations(items, { loaded }));
  },
};
