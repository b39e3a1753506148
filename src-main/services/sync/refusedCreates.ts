// What can be done with a create the remote refused, per create operation.
//
// Retry: it goes as its record is now here, not as it was first asked for:
// the user may have corrected what the remote refused (reassigned an
// annotation to someone the remote knows, relinked a channel, renamed a
// search). `rebuild` gives the request (in the form the outbox keeps: the
// validated request) that would create the record as it is now. Nothing exists
// remotely, and the client marker (the local id) stays, so an unknown outcome
// of the resend is still resolved by lookup. Every field an update can change
// is part of these create requests, so the record goes as it is; the updates
// that waited on it are queued again by the retry and resend the same values.
//
// Discard: the user gives the record up (its asset or run, which no update can
// change, will never exist on the remote). `discard` deletes it here, with its
// child rows and logs; the record exists nowhere else, so this is only done
// when asked for by name (DismissSyncEntry with discard_record).
import { CreateAnnotationRequest } from '../../../src-shared/api/annotations';
import { CreateSavedSearchRequest } from '../../../src-shared/api/savedSearches';
import { ApiError, Code } from '../../../src-shared/errors';
import type { RequestContext } from '../../engine';
import { getAnnotation } from '../annotations/annotationsService';
import { getSavedSearch } from '../savedSearches/savedSearchesService';

interface RefusedCreate {
  rebuild(ctx: RequestContext, recordId: string): unknown;
  /** Deletes the record here (and what cascades with it); nothing when it is already gone. */
  discard(ctx: RequestContext, recordId: string): void;
}

const REFUSED: Record<string, RefusedCreate> = {
  CreateAnnotation: {
    rebuild(ctx, id) {
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
    // Tags, assets, channels, metadata and logs go with it (ON DELETE CASCADE).
    discard: (ctx, id) => void ctx.db.run('DELETE FROM annotations WHERE id = ?', [id]),
  },
  CreateSavedSearch: {
    rebuild(ctx, id) {
      const { savedSearch: s } = getSavedSearch(ctx, id);
      return CreateSavedSearchRequest.parse({ name: s.name, properties: s.properties, organizationId: s.organizationId });
    },
    discard: (ctx, id) => void ctx.db.run('DELETE FROM saved_searches WHERE id = ?', [id]),
  },
};

const refusedCreate = (operation: string): RefusedCreate | undefined => (Object.hasOwn(REFUSED, operation) ? REFUSED[operation] : undefined);

/** Whether a refused create by `operation` can be discarded (its record deleted here). */
export const canDiscard = (operation: string): boolean => refusedCreate(operation) !== undefined;

/**
 * The request that creates record `recordId` as it is now here, for a create by `operation`; undefined when the
 * operation has no such rebuild (an import or an upload is what its file was) or the record is no longer held here.
 */
export function currentCreateRequest(ctx: RequestContext, operation: string, recordId: string): unknown {
  const rc = refusedCreate(operation);
  if (!rc) return undefined;
  try {
    return rc.rebuild(ctx, recordId);
  } catch (e) {
    if (e instanceof ApiError && e.code === Code.NOT_FOUND) return undefined; // gone here: the original request stands
    throw e;
  }
}

/** Deletes record `recordId`, made here by a refused create by `operation` (canDiscard). */
export function discardRecord(ctx: RequestContext, operation: string, recordId: string): void {
  refusedCreate(operation)!.discard(ctx, recordId);
}
