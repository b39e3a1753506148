import { describe, expect, test } from 'vitest';
import { annotationLogFactory, commentLog, USER_ID } from '../testing/factories';
import { commentText, toActivity } from './activity';

describe('toActivity', () => {
  test('comment', () => {
    const entry = toActivity(commentLog('Confirmed with the test conductor.'));
    expect(entry).toMatchObject({
      kind: 'comment',
      tone: 'comment',
      who: 'engineer@outpost.local',
      summary: 'commented',
      text: 'Confirmed with the test conductor.',
    });
  });

  test('state updates, including creation', () => {
    const created = annotationLogFactory.build({
      kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE',
      comment: undefined,
      stateUpdate: { state: 'ANNOTATION_LOG_STATE_CREATED' },
    });
    const flagged = annotationLogFactory.build({
      kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE',
      comment: undefined,
      stateUpdate: { state: 'ANNOTATION_LOG_STATE_FLAGGED' },
    });
    expect(toActivity(created)).toMatchObject({ summary: 'created the annotation', tone: 'neutral' });
    expect(toActivity(flagged)).toMatchObject({ kind: 'state', tone: 'flagged', summary: 'set state to Flagged', text: '' });
  });

  test('assignment, by email or via the user directory', () => {
    const byEmail = annotationLogFactory.build({
      kind: 'ANNOTATION_LOG_KIND_ASSIGNED',
      comment: undefined,
      assigned: { assignedToUserId: 'u2', assignedToUserEmail: 'ana.ruiz@outpost.local' },
    });
    const byId = annotationLogFactory.build({
      kind: 'ANNOTATION_LOG_KIND_ASSIGNED',
      comment: undefined,
      assigned: { assignedToUserId: 'u3', assignedToUserEmail: '' },
    });
    const cleared = annotationLogFactory.build({
      kind: 'ANNOTATION_LOG_KIND_ASSIGNED',
      comment: undefined,
      assigned: { assignedToUserId: '', assignedToUserEmail: '' },
    });
    expect(toActivity(byEmail).summary).toBe('assigned to ana.ruiz@outpost.local');
    expect(toActivity(byId, new Map([['u3', 'kenji.sato@outpost.local']])).summary).toBe('assigned to kenji.sato@outpost.local');
    expect(toActivity(cleared).summary).toBe('removed the assignee');
  });

  test('falls back to the directory, then the id, for the author', () => {
    const log = annotationLogFactory.build({ createdByUserName: '' });
    expect(toActivity(log, new Map([[USER_ID, 'someone@outpost.local']])).who).toBe('someone@outpost.local');
    expect(toActivity(log).who).toBe(USER_ID);
  });

  test('commentText joins text and mentions', () => {
    const log = annotationLogFactory.build({
      comment: {
        body: [
          { type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text: 'Ping ', userMention: null },
          {
            type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_USER_MENTION',
            text: '',
            userMention: { userId: 'u2', userEmail: 'ana.ruiz@outpost.local' },
          },
          { type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text: ' please check', userMention: null },
        ],
      },
    });
    expect(commentText(log)).toBe('Ping @ana.ruiz please check');
  });
});
