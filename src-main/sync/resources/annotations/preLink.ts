// Annotations made before the first link go to the remote organization as
// ordinary offline creates (sync/operations/preLink.ts), with their comments
// (CreateAnnotationLog, oldest first) and their archive, and the local original
// goes. Their references resolve by name in that organization, as the platform
// itself takes assets by name: an asset by its name, a run by its name, a
// channel by its name and its asset's name; tags go by name (made on first use).
// A reference with no namesake there keeps the annotation here, counted, with
// the reason (adopt again once the platform has it): nothing is dropped
// silently. Assignments and mentions of the profile's local users (the engineer
// before the link) become the remote user; a mention of anyone else the remote
// organization does not know becomes plain text. The state and assignee travel
// in the create (the remote writes its own history logs for them).
import { AnnotationLogKind } from '../../../../src-shared/api/annotationLogs';
import type { Annotation, LinkedChannel } from '../../../../src-shared/api/annotations';
import type { Db } from '../../../db/database';
import { getAnnotation } from '../../../services/annotations/annotationsService';
import { adoptedPreLink } from '../../preLinkCount';
import type { Adoption } from '../../resource';
import { ANNOTATION, CLIENT_ID_KEY } from './shape';

interface StoredElement {
  type: string;
  text: string;
  userMention: { userId: string; userEmail: string } | null;
}

const isMember = (db: Db, organizationId: string, userId: string) =>
  db.get('SELECT 1 FROM memberships WHERE organization_id = ? AND user_id = ? AND active = 1', [organizationId, userId]) !== undefined;

/** The remote user for the profile's local users; anyone else as is. */
const userFor = (a: Adoption, userId: string) => (a.localUserIds.has(userId) ? a.ctx.caller.userId : userId);

type Resolved<T> = { value: T } | { reason: string };

function channelNamed(db: Db, organizationId: string, localChannelId: string): Resolved<string> {
  const local = db.get<{ name: string; asset: string | null }>(
    'SELECT c.name, s.name AS asset FROM channels c LEFT JOIN assets s ON s.id = c.asset_id WHERE c.id = ?',
    [localChannelId],
  );
  if (!local) return { reason: `its channel ${localChannelId} is not held here` };
  const found = db.all<{ id: string }>(
    'SELECT c.id FROM channels c JOIN assets s ON s.id = c.asset_id WHERE c.organization_id = ? AND c.name = ? AND s.name = ?',
    [organizationId, local.name, local.asset ?? ''],
  );
  if (found.length !== 1)
    return {
      reason: `its channel '${local.name}' of asset '${local.asset ?? ''}' has ${found.length ? 'several namesakes' : 'no namesake'} in the remote organization`,
    };
  return { value: found[0].id };
}

function linkedChannelsFor(db: Db, organizationId: string, links: readonly LinkedChannel[]): Resolved<LinkedChannel[]> {
  const out: LinkedChannel[] = [];
  for (const link of links) {
    if (link.calculatedChannel)
      return {
        reason: `its calculated channel ${link.calculatedChannel.calculatedChannelVersionId} cannot be matched in the remote organization`,
      };
    const local = link.channel?.channelId ?? link.bitFieldElement!.channelId;
    const remote = channelNamed(db, organizationId, local);
    if ('reason' in remote) return remote;
    out.push(
      link.channel
        ? { channel: { channelId: remote.value } }
        : { bitFieldElement: { channelId: remote.value, bitFieldName: link.bitFieldElement!.bitFieldName } },
    );
  }
  return { value: out };
}

function runFor(db: Db, organizationId: string, localRunId: string): Resolved<string> {
  const name = db.get<{ name: string }>('SELECT name FROM runs WHERE id = ?', [localRunId])?.name;
  if (name === undefined) return { reason: `its run ${localRunId} is not held here` };
  const found = db.all<{ id: string }>('SELECT id FROM runs WHERE organization_id = ? AND name = ?', [organizationId, name]);
  if (found.length !== 1)
    return { reason: `its run '${name}' has ${found.length ? 'several namesakes' : 'no namesake'} in the remote organization` };
  return { value: found[0].id };
}

function assetsFor(db: Db, organizationId: string, assetIds: readonly string[]): Resolved<string[]> {
  const names = db
    .all<{ name: string }>('SELECT s.name FROM json_each(?) j JOIN assets s ON s.id = j.value ORDER BY j.key', [JSON.stringify(assetIds)])
    .map((r) => r.name);
  for (const name of names) {
    if (!db.get('SELECT 1 FROM assets WHERE organization_id = ? AND name = ?', [organizationId, name]))
      return { reason: `its asset '${name}' has no namesake in the remote organization` };
  }
  return { value: names };
}

/** The CreateAnnotation request that makes the annotation in the remote organization, or why it cannot. */
function createRequest(a: Adoption, x: Annotation): Resolved<Record<string, unknown>> {
  const db = a.ctx.db;
  const assets = assetsFor(db, a.organizationId, x.assetIds);
  if ('reason' in assets) return assets;
  const channels = linkedChannelsFor(db, a.organizationId, x.linkedChannels);
  if ('reason' in channels) return channels;
  const run = x.runId ? runFor(db, a.organizationId, x.runId) : undefined;
  if (run && 'reason' in run) return run;
  const assignee = x.assignedToUserId ? userFor(a, x.assignedToUserId) : '';
  if (assignee && !isMember(db, a.organizationId, assignee))
    return { reason: `its assignee ${x.assignedToUser?.userName ?? assignee} is not a member of the remote organization` };
  return {
    value: {
      name: x.name,
      description: x.description,
      startTime: x.startTime,
      endTime: x.endTime,
      assets: assets.value,
      linkedChannels: channels.value,
      tags: x.tags,
      runId: run?.value,
      assignToUserId: assignee || undefined,
      organizationId: a.organizationId,
      state: x.state === 'ANNOTATION_STATE_UNSPECIFIED' ? undefined : x.state,
      annotationType: x.annotationType,
      legendConfig: x.legendConfig,
      // (The rule that made it is a local rule: the platform has no such condition.)
      metadata: x.metadata.filter((m) => m.key.name !== CLIENT_ID_KEY),
    },
  };
}

/** A stored comment element as a request's: a mention of someone the remote organization does not know becomes text. */
function commentElement(a: Adoption, e: StoredElement): Record<string, unknown> {
  if (e.type !== 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_USER_MENTION' || !e.userMention) return { type: e.type, text: e.text };
  const userId = userFor(a, e.userMention.userId);
  if (isMember(a.ctx.db, a.organizationId, userId)) return { type: e.type, text: e.text, userMention: { userId } };
  return { type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text: e.text || `@${e.userMention.userEmail}` };
}

function adoptOne(a: Adoption, id: string): boolean {
  const { annotation: x } = getAnnotation(a.localCtx, id);
  const request = createRequest(a, x);
  if ('reason' in request) {
    a.leave({ resource: ANNOTATION, recordId: id, name: x.name, reason: request.reason });
    return false;
  }
  return a.attempt({ resource: ANNOTATION, recordId: id, name: x.name }, () => {
    const { annotation: copy } = a.write('CreateAnnotation', request.value) as { annotation: Annotation };
    const comments = a.ctx.db.all<{ comment_body: string }>(
      'SELECT comment_body FROM annotation_logs WHERE annotation_id = ? AND kind = ? ORDER BY created_date, pk',
      [id, AnnotationLogKind.numbers.ANNOTATION_LOG_KIND_COMMENT],
    );
    for (const c of comments) {
      const body = (JSON.parse(c.comment_body) as StoredElement[]).map((e) => commentElement(a, e));
      a.write('CreateAnnotationLog', { annotationId: copy.annotationId, kind: 'ANNOTATION_LOG_KIND_COMMENT', comment: { body } });
    }
    if (x.archivedDate) a.write('ArchiveAnnotation', { annotationId: copy.annotationId });
    a.moved.set(id, copy.annotationId);
    a.deleteHeld([{ resource: ANNOTATION, id }]);
  });
}

export const preLinkAnnotations = adoptedPreLink(ANNOTATION, 'annotations', 'annotations', adoptOne);
