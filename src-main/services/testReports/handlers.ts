// Handlers of the testReports operations (one per entry of testReportOperations).
import type { testReportOperations } from '../../../src-shared/api/testReports';
import type { HandlerMap } from '../handler';

export const testReportHandlers: HandlerMap<typeof testReportOperations> = {};
