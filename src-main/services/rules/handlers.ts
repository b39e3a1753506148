// Handlers of the rules operations (one per entry of ruleOperations).
import type { ruleOperations } from '../../../src-shared/api/rules';
import type { HandlerMap } from '../handler';

export const ruleHandlers: HandlerMap<typeof ruleOperations> = {};
