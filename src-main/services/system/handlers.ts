// Health check and the OpenAPI document.
import type { systemOperations } from '../../../src-shared/api/system';
import { buildOpenApiDocument } from '../../../src-shared/openapi';
import type { HandlerMap } from '../common/handler';

let openApiDocument: Record<string, unknown> | undefined;

export const systemHandlers: HandlerMap<typeof systemOperations> = {
  Ping: () => ({ response: 'pong' }),
  GetOpenApiDocument: () => (openApiDocument ??= buildOpenApiDocument()),
};
