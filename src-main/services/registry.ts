// Every service operation's handler, by operation name. The sync operations'
// handlers live with sync (sync/operations/handlers.ts) and reach invoke()
// through the engine's replica (sync/replica.ts). A test asserts that every entry of the
// operation table has exactly one of the two.
import type { Operations } from '../../src-shared/operations';
import { annotationLogHandlers } from './annotations/annotationLogHandlers';
import { annotationHandlers } from './annotations/annotationHandlers';
import { artifactHandlers } from './artifacts/handlers';
import { externalSyncHandlers } from './externalSync/handlers';
import type { HandlerMap } from './common/handler';
import { policyHandlers } from './policies/handlers';
import { referenceHandlers } from './reference/handlers';
import { remoteFileHandlers } from './remoteFiles/handlers';
import { ruleHandlers } from './rules/handlers';
import { savedSearchHandlers } from './savedSearches/handlers';
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
};
