// Test factories: valid wire objects with sensible defaults, overridable per
// test (`annotationFactory.build({ name: 'x' })`). Sequenced ids keep lists distinct.
import type { AnnotationLog } from '../../../../src-shared/api/annotationLogs';
import type { Annotation } from '../../../../src-shared/api/annotations';

let sequence = 0;
const next = () => ++sequence;
const uuid = (n: number, prefix = '00000000') => `${prefix}-0000-4000-a000-${String(n).padStart(12, '0')}`;

export interface Factory<T> {
  build(overrides?: Partial<T>): T;
  buildList(count: number, overrides?: Partial<T>): T[];
}

function factory<T>(make: (n: number) => T): Factory<T> {
  return {
    build: (overrides = {}) => ({ ...make(next()), ...overrides }),
    buildList: (count, overrides = {}) => Array.from({ length: count }, () => ({ ...make(next()), ...overrides })),
  };
}

export const USER_ID = uuid(1, 'aaaaaaaa');
export const USER_NAME = 'engineer@outpost.local';

export const annotationFactory = factory<Annotation>((n) => {
  const start = new Date(Date.UTC(2026, 8, 1, 12, 0, n % 60)).toISOString().replace('.000Z', 'Z');
  const end = new Date(Date.UTC(2026, 8, 1, 12, 1, n % 60)).toISOString().replace('.000Z', 'Z');
  return {
    annotationId: uuid(n),
    name: `Annotation ${n}`,
    description: `Description ${n}`,
    startTime: start,
    endTime: end,
    createdByUserId: USER_ID,
    modifiedByUserId: USER_ID,
    createdDate: start,
    modifiedDate: start,
    state: 'ANNOTATION_STATE_OPEN',
    organizationId: uuid(1, 'bbbbbbbb'),
    assignedToUserId: '',
    annotationType: 'ANNOTATION_TYPE_DATA_REVIEW',
    tags: [],
    pending: false,
    assignedToUser: null,
    deletedDate: null,
    linkedChannels: [],
    assetIds: [uuid(1, 'cccccccc')],
    metadata: [],
    archivedDate: null,
    isArchived: false,
    batchedTriggers: 0,
    isNoisyRule: false,
  };
});

export const annotationLogFactory = factory<AnnotationLog>((n) => ({
  annotationLogId: uuid(n, 'dddddddd'),
  createdDate: new Date(Date.UTC(2026, 8, 2, 9, 0, n % 60)).toISOString().replace('.000Z', 'Z'),
  modifiedDate: new Date(Date.UTC(2026, 8, 2, 9, 0, n % 60)).toISOString().replace('.000Z', 'Z'),
  annotationId: uuid(1),
  kind: 'ANNOTATION_LOG_KIND_COMMENT',
  createdByUserId: USER_ID,
  createdByUserName: USER_NAME,
  comment: { body: [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text: `Comment ${n}`, userMention: null }] },
}));

export function commentLog(text: string, overrides: Partial<AnnotationLog> = {}): AnnotationLog {
  return annotationLogFactory.build({
    kind: 'ANNOTATION_LOG_KIND_COMMENT',
    comment: { body: [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text, userMention: null }] },
    ...overrides,
  });
}
