// ExternalSyncService operations (settings and tokens) -> externalSyncService.
import type { externalSyncOperations } from '../../../src-shared/api/externalSync';
import type { HandlerMap } from '../common/handler';
import { generateToken, getExternalSync, listExternalSyncTokens } from './externalSyncService';

export const externalSyncHandlers: HandlerMap<typeof externalSyncOperations> = {
  GetExternalSync: (ctx, req) => getExternalSync(ctx, req.organizationId),
  GenerateToken: (ctx, req) => generateToken(ctx, req.organizationId),
  ListExternalSyncTokens: (ctx, req) => listExternalSyncTokens(ctx, req),
};
