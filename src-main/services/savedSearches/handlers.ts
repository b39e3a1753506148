// Handlers of the savedSearches operations (one per entry of savedSearchOperations).
import type { savedSearchOperations } from '../../../src-shared/api/savedSearches';
import type { HandlerMap } from '../handler';

export const savedSearchHandlers: HandlerMap<typeof savedSearchOperations> = {};
