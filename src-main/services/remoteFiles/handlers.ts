// Handlers of the remoteFiles operations (one per entry of remoteFileOperations).
import type { remoteFileOperations } from '../../../src-shared/api/remoteFiles';
import type { HandlerMap } from '../handler';

export const remoteFileHandlers: HandlerMap<typeof remoteFileOperations> = {};
