// Pulls annotations (archives arrive as state: archived_date / is_archived).
import type { Annotation } from '../../../src-shared/api/annotations';
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
  apply(s, items, _variant, loaded) {
    s.applier.annotations(items, { loaded });
    return items.length;
  },
};
