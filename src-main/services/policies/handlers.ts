// Handlers of the policies operations (one per entry of policyOperations).
import type { policyOperations } from '../../../src-shared/api/policies';
import type { HandlerMap } from '../handler';

export const policyHandlers: HandlerMap<typeof policyOperations> = {};
