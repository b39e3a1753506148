// ListAnnotations: one keyset page (filter, order, page token) of the caller's
// organization, as wire objects, or as JSON text for a transport that writes
// text (HTTP): annotationJson.ts builds the same bytes from the rows.
import type { Annotation } from '../../../src-shared/api/annotations';
import { resolveOrganization } from '../../auth/caller';
import type { RequestContext } from '../../engine';
import { countMatching, listPage, type ListParams, type Page, type Scope } from '../../filter/listQuery';
import { JsonText } from '../common/jsonText';
import { annotationsJson } from './annotationJson';
import { annotationListSpec } from './annotationListSpec';
import { loadAnnotations } from './annotationRows';

import { COUNT_EXACT_LIMIT } from '../../../src-shared/api/annotations';

type ListAnnotationsParams = ListParams & { organizationId?: string };

/** The rows a caller lists: one organization's (the one named, else the caller's), through the policies' gate. */
export function scopeOf(ctx: RequestContext, organizationId: string | undefined): Scope {
  const org = resolveOrganization(ctx.caller, organizationId);
  return { sql: 't.organization_id = ?', params: [org], fingerprint: [org], gate: ctx.rowGate };
}

function page(ctx: RequestContext, req: ListAnnotationsParams): Page {
  return listPage(ctx.db, annotationListSpec, req, scopeOf(ctx, req.organizationId), ctx.engine.pageTokenSecret);
}

/** CountAnnotations: how many annotations ListAnnotations would list for the filter (exact up to COUNT_EXACT_LIMIT). */
export function countAnnotations(
  ctx: RequestContext,
  req: { filter?: string; organizationId?: string },
): { count: string; exact: boolean } {
  const { count, exact } = countMatching(ctx.db, annotationListSpec, req.filter, scopeOf(ctx, req.organizationId), COUNT_EXACT_LIMIT);
  return { count: String(count), exact };
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
