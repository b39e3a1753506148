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
// Creates without `rebuild` go as they were asked (an import or an upload is
// what its file was).
//
// Discard: the user gives the record up (its asset or run, which no update can
// change, will never exist on the remote; a file the remote will not take; a
// comment naming someone the remote does not know). `discard` deletes what the
// create made here, with what cascades from it; the record exists nowhere
// else, so this is only done when asked for by name (DismissSyncEntry with
// discard_record). Files go only once the deletion has committed.
import { CreateAnnotationRequest } from '../../../src-shared/api/annotations';
import { CreateSavedSearchRequest } from '../../../src-shared/api/savedSearches';
import { ApiError, Code } from '../../../src-shared/errors';
import type { RequestContext } from '../../engine';
import type { CreatedRef } from '../types';
import { getAnnotation } from '../../services/annotations/annotationsService';
import { removeFromStore } from '../../services/artifacts/artifactStorage';
import { removeContent } from '../../services/remoteFiles/contentStore';
import { getSavedSearch } from '../../services/savedSearches/savedSearchesService';
import { deleteTestStep } from '../../services/testReports/testStepsService';
import { deleteHeld, heldHere } from './localRecords';

/** Work for after the discard's transaction has committed (removing files). */
export type AfterCommit = () => void;

interface RefusedCreate {
  rebuild?(ctx: RequestContext, recordId: string): unknown;
  /** Why this entry's record cannot be discarded (its request is the stored one); undefined when it can. */
  keeps?(request: unknown): string | undefined;
  /**
   * Deletes what the create made (`made`: its created ids, the record first) and what cascades from it; nothing for
   * what is already gone. Without one, the records `made` names are deleted from their tables (localRecords.ts).
   */
  discard?(ctx: RequestContext, made: readonly CreatedRef[]): AfterCommit | void;
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
    // (Discarded with its tags, assets, channels, metadata and logs.)
  },
  CreateAnnotationLog: {
    // A state change or an assignment changed the annotation here too: giving up only the log would leave it changed
    // here and not on the remote, with nothing left to send.
    keeps: (req) => ((req as { kind?: string } | null)?.kind === 'ANNOTATION_LOG_KIND_COMMENT' ? undefined : 'it changed its annotation here too'),
  },
  CreateSavedSearch: {
    rebuild(ctx, id) {
      const { savedSearch: s } = getSavedSearch(ctx, id);
      return CreateSavedSearchRequest.parse({ name: s.name, properties: s.properties, organizationId: s.organizationId });
    },
  },
  // (Discarded with its versions.)
  CreatePolicy: {},
  // (Discarded with their steps and measurements, which an import's created ids list too.)
  CreateTestReport: {},
  ImportTestReport: {},
  // The step's descendants too (they name it as their parent), and the measurements of all of them.
  CreateTestStep: {
    discard(ctx, [step]) {
      if (heldHere(ctx.db, step.resource, step.id)) deleteTestStep(ctx, step.id);
    },
  },
  CreateTestMeasurement: {},
  CreateTestMeasurements: {},
  UploadRemoteFile: {
    discard(ctx, made) {
      const row = ctx.db.get<{ content_path: string | null }>('SELECT content_path FROM remote_files WHERE id = ?', [made[0].id]);
      deleteHeld(ctx.db, made);
      return row ? () => removeContent(ctx.engine.dataDir, row.content_path) : undefined;
    },
  },
  UploadArtifact: { discard: discardArtifact },
  CreateStructuredArtifact: { discard: discardArtifact },
};

/** An artifact made here: its versions, links and metadata go with it, then its versions' content files. */
function discardArtifact(ctx: RequestContext, made: readonly CreatedRef[]): AfterCommit {
  const paths = ctx.db
    .all<{ storage_path: string }>('SELECT v.storage_path FROM artifact_versions v JOIN artifacts a ON a.pk = v.artifact_pk WHERE a.id = ?', [made[0].id])
    .map((r) => r.storage_path);
  deleteHeld(ctx.db, made);
  return () => paths.forEach((p) => removeFromStore(ctx.engine.dataDir, p));
}

const refusedCreate = (operation: string): RefusedCreate | undefined => (Object.hasOwn(REFUSED, operation) ? REFUSED[operation] : undefined);

/**
 * Why a refused create by `operation` (stored request `request`) cannot be discarded, its record deleted here;
 * undefined when it can. Not a new artifact version (the artifact it changed stays) nor a log that changed its annotation.
 */
export function whyKept(operation: string, request: unknown): string | undefined {
  const rc = refusedCreate(operation);
  return rc ? rc.keeps?.(request) : 'it changed another record too';
}

/**
 * The request that creates record `recordId` as it is now here, for a create by `operation`; undefined when the
 * operation has no such rebuild (an import or an upload is what its file was) or the record is no longer held here.
 */
export function currentCreateRequest(ctx: RequestContext, operation: string, recordId: string): unknown {
  const rc = refusedCreate(operation);
  if (!rc?.rebuild) return undefined;
  try {
    return rc.rebuild(ctx, recordId);
  } catch (e) {
    if (e instanceof ApiError && e.code === Code.NOT_FOUND) return undefined; // gone here: the original request stands
    throw e;
  }
}

/** Deletes what a refused create by `operation` made here (one whyKept lets go); returns what to do once that has committed. */
export function discardRecords(ctx: RequestContext, operation: string, made: readonly CreatedRef[]): AfterCommit | void {
  const rc = refusedCreate(operation)!;
  return rc.discard ? rc.discard(ctx, made) : deleteHeld(ctx.db, made);
}
