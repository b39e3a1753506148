// Every operation's handler, by operation name. A test asserts that every
// entry of the operation table has one.
import type { Operations } from '../../src-shared/operations';
import { annotationLogHandlers } from './annotations/annotationLogHandlers';
import { annotationHandlers } from './annotations/annotationHandlers';
import { artifactHandlers } from './artifacts/handlers';
import { externalSyncHandlers } from './externalSync/handlers';
import type { HandlerMap } from './handler';
import { policyHandlers } from './policies/handlers';
import { referenceHandlers } from './reference/handlers';
import { remoteFileHandlers } from './remoteFiles/handlers';
import { ruleHandlers } from './rules/handlers';
import { savedSearchHandlers } from './savedSearches/handlers';
import { syncHandlers } from './sync/handlers';
import { systemHandlers } from './system/handlers';
import { testReportHandlers } from './testReports/handlers';

export const handlers: Partial<HandlerMap<Operations>> = {
  ...systemHandlers,
  ...annotationHandlers,
  ...annotationLogHandlers,
  ...referenceHandlers,
  ...savedSearchHandlers,
  ...ruleHandlers,
  ...policyHandlers,
  ...testReportHandlers,
  ...remoteFileHandlers,
  ...artifactHandlers,
  ...externalSyncHandlers,
  ...syncHandlers,
};
