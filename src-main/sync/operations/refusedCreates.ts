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
// Creates whose `rebuild` gives nothing go as they were asked (an import or an upload is
// what its file was).
//
// Discard: the user gives the record up (its asset or run, which no update can
// change, will never exist on the remote; a file the remote will not take; a
// comment naming someone the remote does not know). `discard` deletes what the
// create made here, with what cascades from it; the record exists nowhere
// else, so this is only done when asked for by name (DismissSyncEntry with
// discard_record). Files go only once the deletion has committed.
import { ApiError, Code } from '../../../src-shared/errors';
import type { RequestContext } from '../../engine';
import type { AfterCommit } from '../spec';
import type { ResourceCatalog } from '../catalog';
import type { CreatedRef } from '../types';
import { heldRecords } from './localRecords';

// (Each create's answer is in its spec: CreateForm.refused.)

/**
 * Why a refused create by `operation` (stored request `request`) cannot be discarded, its record deleted here;
 * undefined when it can. Not a new artifact version (the artifact it changed stays) nor a log that changed its annotation.
 */
export function whyKept(catalog: ResourceCatalog, operation: string, request: unknown): string | undefined {
  const rc = catalog.refusedCreate(operation);
  return rc ? rc.keeps(request) : 'it changed another record too';
}

/**
 * The request that creates record `recordId` as it is now here, for a create by `operation`; undefined when the
 * operation has no such rebuild (an import or an upload is what its file was) or the record is no longer held here.
 */
export function currentCreateRequest(catalog: ResourceCatalog, ctx: RequestContext, operation: string, recordId: string): unknown {
  const rc = catalog.refusedCreate(operation);
  if (!rc) return undefined;
  try {
    return rc.rebuild(ctx, recordId);
  } catch (e) {
    if (e instanceof ApiError && e.code === Code.NOT_FOUND) return undefined; // gone here: the original request stands
    throw e;
  }
}

/** Deletes what a refused create by `operation` made here (one whyKept lets go); returns what to do once that has committed. */
export function discardRecords(
  catalog: ResourceCatalog,
  ctx: RequestContext,
  operation: string,
  made: readonly CreatedRef[],
): AfterCommit | void {
  const rc = catalog.refusedCreate(operation)!;
  return rc.discard(ctx, made, heldRecords(catalog, ctx.db));
}
