// ListAnnotations: one keyset page (filter, order, page token) of the caller's
// organization, as wire objects, or as JSON text for a transport that writes
// text (HTTP): annotationJson.ts builds the same bytes from the rows.
import type { Annotation } from '../../../src-shared/api/annotations';
import { resolveOrganization } from '../../auth/caller';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams, type Page } from '../../filter/listQuery';
import { JsonText } from '../common/jsonText';
import { annotationsJson } from './annotationJson';
import { annotationListSpec } from './annotationListSpec';
import { loadAnnotations } from './annotationRows';

type ListAnnotationsParams = ListParams & { organizationId?: string };

function page(ctx: RequestContext, req: ListAnnotationsParams): Page {
  const organizationId = resolveOrganization(ctx.caller, req.organizationId);
  return listPage(
    ctx.db,
    annotationListSpec,
    req,
    { sql: 't.organization_id = ?', params: [organizationId], fingerprint: [organizationId], gate: ctx.rowGate },
    ctx.engine.pageTokenSecret,
  );
}

export function listAnnotations(ctx: RequestContext, req: ListAnnotationsParams): { annotations: Annotation[]; nextPageToken: string } {
  const { keys, nextPageToken } = page(ctx, req);
  return { annotations: loadAnnotations(ctx.db, keys), nextPageToken };
}

/** The same response as `listAnnotations`, as its JSON text (`JSON.stringify` of it, byte for byte). */
export function listAnnotationsJson(ctx: RequestContext, req: ListAnnotationsParams): JsonText {
  const { keys, nextPageToken } = page(ctx, req);
  return new JsonText(`{"annotations":${annotationsJson(ctx.db, keys)},"nextPageToken":${JSON.stringify(nextPageToken)}}`);
}
