// Handlers of the externalSync operations (one per entry of externalSyncOperations).
import type { externalSyncOperations } from '../../../src-shared/api/externalSync';
import type { HandlerMap } from '../handler';

export const externalSyncHandlers: HandlerMap<typeof externalSyncOperations> = {};
