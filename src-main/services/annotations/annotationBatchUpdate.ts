// BatchUpdateAnnotations' plan: its requests, each run as the UpdateAnnotation
// it is (what invoke() does for a batch without a plan), after the batch's one
// read of the annotations they name (annotationBatchRead.ts).
import type { z } from 'zod';
import type { annotationOperations } from '../../../src-shared/api/annotations';
import type { BatchPlanner } from '../common/batchPlan';
import { readForBatchByIds } from './annotationBatchRead';

type BatchUpdateAnnotationsInput = z.output<(typeof annotationOperations)['BatchUpdateAnnotations']['request']>;

export const planAnnotationUpdates: BatchPlanner<BatchUpdateAnnotationsInput> = (ctx, req) => {
  readForBatchByIds(
    ctx,
    req.requests.map((r) => r.annotation.annotationId),
  );
  return {
    items: req.requests.map((request) => ({ operation: 'UpdateAnnotation', request })),
    itemField: (i) => `requests[${i}]`,
    answer: (responses) => ({ responses }),
  };
};
