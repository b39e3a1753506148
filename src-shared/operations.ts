// THE contract: every operation of the API, by name. The HTTP router, the IPC
// bridge, the typed client and the OpenAPI document are all derived from this
// table; nothing else lists routes, methods or request/response shapes.
import { annotationLogOperations } from './api/annotationLogs';
import { annotationOperations } from './api/annotations';
import { artifactOperations } from './api/artifacts';
import { externalSyncOperations } from './api/externalSync';
import type { OperationDef } from './api/operation';
import { policyOperations } from './api/policies';
import { referenceOperations } from './api/reference';
import { remoteFileOperations } from './api/remoteFiles';
import { ruleOperations } from './api/rules';
import { savedSearchOperations } from './api/savedSearches';
import { syncOperations } from './api/sync';
import { systemOperations } from './api/system';
import { testReportOperations } from './api/testReports';

export const operations = {
  ...systemOperations,
  ...annotationOperations,
  ...annotationLogOperations,
  ...referenceOperations,
  ...savedSearchOperations,
  ...ruleOperations,
  ...policyOperations,
  ...testReportOperations,
  ...remoteFileOperations,
  ...artifactOperations,
  ...externalSyncOperations,
  ...syncOperations,
} as const;

export type Operations = typeof operations;
export type OperationName = keyof Operations;

export const operationList: readonly OperationDef[] = Object.values(operations);
