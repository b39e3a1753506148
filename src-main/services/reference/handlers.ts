// Handlers of the reference operations (one per entry of referenceOperations).
import type { referenceOperations } from '../../../src-shared/api/reference';
import type { HandlerMap } from '../handler';

export const referenceHandlers: HandlerMap<typeof referenceOperations> = {};
