// AnnotationService operations -> annotationsService.
import type { annotationOperations } from '../../../src-shared/api/annotations';
import type { HandlerMap } from '../common/handler';
import { countAnnotations, listAnnotations, listAnnotationsJson } from './annotationListing';
import { archiveAnnotations, createAnnotation, getAnnotation, unarchiveAnnotations, updateAnnotation } from './annotationsService';

// (The batches BatchUpdateAnnotations and BatchChangeAnnotations have no handler: invoke runs their items, `eachAs`.)
export const annotationHandlers: HandlerMap<Omit<typeof annotationOperations, 'BatchUpdateAnnotations' | 'BatchChangeAnnotations'>> = {
  CreateAnnotation: (ctx, req) => createAnnotation(ctx, req),
  GetAnnotation: (ctx, req) => getAnnotation(ctx, req.annotationId),
  UpdateAnnotation: (ctx, req) => updateAnnotation(ctx, req.annotation, req.updateMask),
  // HTTP writes the page's JSON text as built from the rows; other transports want wire objects.
  CountAnnotations: (ctx, req) => countAnnotations(ctx, req),
  ListAnnotations: (ctx, req) => (ctx.acceptsJsonText ? listAnnotationsJson(ctx, req) : listAnnotations(ctx, req)),
  ArchiveAnnotation: (ctx, req) => ({ annotation: archiveAnnotations(ctx, [req.annotationId])[0] }),
  UnarchiveAnnotation: (ctx, req) => ({ annotation: unarchiveAnnotations(ctx, [req.annotationId])[0] }),
  // Delete is deprecated and archives (reference §3).
  DeleteAnnotation: (ctx, req) => (archiveAnnotations(ctx, [req.annotationId]), {}),
  BatchDeleteAnnotations: (ctx, req) => (archiveAnnotations(ctx, req.annotationIds), {}),
  BatchArchiveAnnotations: (ctx, req) => ({ annotations: archiveAnnotations(ctx, req.annotationIds) }),
  BatchUnarchiveAnnotations: (ctx, req) => ({ annotations: unarchiveAnnotations(ctx, req.annotationIds) }),
};
