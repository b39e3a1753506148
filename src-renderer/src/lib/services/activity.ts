// One line of an annotation's activity history, from a log entry.
import type { AnnotationLog } from '../../../../src-shared/api/annotationLogs';
import { enumLabel, shortUser } from '../format';

export interface ActivityEntry {
  readonly id: string;
  readonly kind: 'comment' | 'state' | 'assigned' | 'other';
  /** Colour of the entry's marker: the state it set, or a neutral one. */
  readonly tone: 'open' | 'flagged' | 'resolved' | 'comment' | 'neutral';
  readonly who: string;
  readonly at: string;
  /** What happened, without the actor (`set state to Flagged`). */
  readonly summary: string;
  /** Comment text (empty for other kinds). */
  readonly text: string;
}

export function commentText(log: AnnotationLog): string {
  return (log.comment?.body ?? [])
    .map((el) =>
      el.type === 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_USER_MENTION'
        ? `@${shortUser(el.userMention?.userEmail) || el.userMention?.userId || ''}`
        : el.text,
    )
    .join('');
}

export function toActivity(log: AnnotationLog, userNames: ReadonlyMap<string, string> = new Map()): ActivityEntry {
  const who = log.createdByUserName || userNames.get(log.createdByUserId) || log.createdByUserId;
  const base = { id: log.annotationLogId, who, at: log.createdDate, tone: 'neutral' as ActivityEntry['tone'] };
  switch (log.kind) {
    case 'ANNOTATION_LOG_KIND_COMMENT':
      return { ...base, kind: 'comment', tone: 'comment', summary: 'commented', text: commentText(log) };
    case 'ANNOTATION_LOG_KIND_STATE_UPDATE': {
      const state = log.stateUpdate?.state;
      if (state === 'ANNOTATION_LOG_STATE_CREATED') return { ...base, kind: 'state', summary: 'created the annotation', text: '' };
      const tone =
        state === 'ANNOTATION_LOG_STATE_OPEN'
          ? 'open'
          : state === 'ANNOTATION_LOG_STATE_FLAGGED'
            ? 'flagged'
            : state === 'ANNOTATION_LOG_STATE_RESOLVED'
              ? 'resolved'
              : 'neutral';
      return { ...base, kind: 'state', tone, summary: `set state to ${enumLabel(state, 'ANNOTATION_LOG_STATE_')}`, text: '' };
    }
    case 'ANNOTATION_LOG_KIND_ASSIGNED': {
      const a = log.assigned;
      if (!a?.assignedToUserId) return { ...base, kind: 'assigned', summary: 'removed the assignee', text: '' };
      const target = a.assignedToUserEmail || userNames.get(a.assignedToUserId) || a.assignedToUserId;
      return { ...base, kind: 'assigned', summary: `assigned to ${target}`, text: '' };
    }
    default:
      return { ...base, kind: 'other', summary: enumLabel(log.kind, 'ANNOTATION_LOG_KIND_').toLowerCase(), text: '' };
  }
}
