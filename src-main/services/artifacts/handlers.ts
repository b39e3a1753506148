// Handlers of the artifacts operations (one per entry of artifactOperations).
import type { artifactOperations } from '../../../src-shared/api/artifacts';
import type { HandlerMap } from '../handler';

export const artifactHandlers: HandlerMap<typeof artifactOperations> = {};
