// AnnotationLogService operations -> annotationLogsService.
import type { annotationLogOperations } from '../../../src-shared/api/annotationLogs';
import type { HandlerMap } from '../common/handler';
import { createAnnotationLog, deleteAnnotationLog, listAnnotationLogs } from './annotationLogsService';

export const annotationLogHandlers: HandlerMap<typeof annotationLogOperations> = {
  CreateAnnotationLog: (ctx, req) => createAnnotationLog(ctx, req),
  ListAnnotationLogs: (ctx, req) => listAnnotationLogs(ctx, req),
  ListAllAnnotationLogs: (ctx, req) => listAnnotationLogs(ctx, req),
  DeleteAnnotationLog: (ctx, req) => deleteAnnotationLog(ctx, req),
};
