// The plan of every batch operation whose items are not simply its request's
// `requests` (`eachAs` in the operation table): invoke() asks it for the items
// to run, inside the batch's transaction.
import type { OperationName } from '../../src-shared/operations';
import { planAnnotationChanges } from './annotations/annotationBatchChange';
import { planAnnotationUpdates } from './annotations/annotationBatchUpdate';
import type { BatchPlanner } from './common/batchPlan';

export const batchPlans: Partial<Record<OperationName, BatchPlanner<never>>> = {
  BatchChangeAnnotations: planAnnotationChanges,
  BatchUpdateAnnotations: planAnnotationUpdates,
};
