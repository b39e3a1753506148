// A refused create is retried as its record is now here, not as it was first
// asked for: the user may have corrected what the remote refused (reassigned
// an annotation to someone the remote knows, relinked a channel, renamed a
// search). Per create operation, the request (in the form the outbox keeps:
// the validated request) that would create the record as it is now.
//
// Only a create the remote refused is rebuilt: nothing exists remotely, and its
// client marker (the local id) stays, so an unknown outcome of the resend is
// still resolved by lookup. Every field an update can change is part of these
// create requests, so the record goes as it is; the updates that waited on it
// are queued again by the retry and resend the same values.
import { CreateAnnotationRequest } from '../../../src-shared/api/annotations';
import { CreateSavedSearchRequest } from '../../../src-shared/api/savedSearches';
import { ApiError, Code } from '../../../src-shared/errors';
import type { RequestContext } from '../../engine';
import { getAnnotation } from '../annotations/annotationsService';
import { getSavedSearch } from '../savedSearches/savedSearchesService';

type Rebuild = (ctx: RequestContext, recordId: string) => unknown;

const REBUILD: Record<string, Rebuild> = {
  CreateAnnotation(ctx, id) {
    const { annotation: a } = getAnnotation(ctx, id);
    // The create names assets (the record holds their ids, in order) and assigns with assign_to_user_id.
    const assets = ctx.db
      .all<{ name: string }>('SELECT s.name FROM json_each(?) j JOIN assets s ON s.id = j.value ORDER BY j.key', [JSON.stringify(a.assetIds)])
      .map((r) => r.name);
    return CreateAnnotationRequest.parse({
      ...a,
      assets,
      assignToUserId: a.assignedToUserId || undefined,
      // (The review state is what the record has; a phase has none.)
      state: a.state === 'ANNOTATION_STATE_UNSPECIFIED' ? undefined : a.state,
    });
  },
  CreateSavedSearch(ctx, id) {
    const { savedSearch: s } = getSavedSearch(ctx, id);
    return CreateSavedSearchRequest.parse({ name: s.name, properties: s.properties, organizationId: s.organizationId });
  },
};

/**
 * The request that creates record `recordId` as it is now here, for a create by `operation`; undefined when the
 * operation has no such rebuild (an import or an upload is what its file was) or the record is no longer held here.
 */
export function currentCreateRequest(ctx: RequestContext, operation: string, recordId: string): unknown {
  const rebuild = Object.hasOwn(REBUILD, operation) ? REBUILD[operation] : undefined;
  if (!rebuild) return undefined;
  try {
    return rebuild(ctx, recordId);
  } catch (e) {
    if (e instanceof ApiError && e.code === Code.NOT_FOUND) return undefined; // gone here: the original request stands
    throw e;
  }
}
