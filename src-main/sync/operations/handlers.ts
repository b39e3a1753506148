// Sync extension operations -> syncService.
import type { syncOperations } from '../../../src-shared/api/sync';
import type { HandlerMap } from '../../services/handler';
import { adoptPreLinkRecords, preLinkRecords } from './preLink';
import { configureRemote, getRemote, removeRemote, syncNow } from './remoteService';
import { dismissConflict, dismissEntry, listConflicts, listOutbox, retryEntry, syncStatus, undoConflict } from './syncService';

export const syncHandlers: HandlerMap<typeof syncOperations> = {
  GetSyncStatus: (ctx) => syncStatus(ctx.db),
  ListSyncConflicts: (ctx, req) => listConflicts(ctx, req),
  UndoSyncConflict: (ctx, req) => undoConflict(ctx, req.conflictId),
  DismissSyncConflict: (ctx, req) => dismissConflict(ctx, req.conflictId),
  ListSyncOutbox: (ctx, req) => listOutbox(ctx, req),
  RetrySyncEntry: (ctx, req) => retryEntry(ctx, req.seq),
  DismissSyncEntry: (ctx, req) => dismissEntry(ctx, req.seq, req.discardRecord === true),
  GetSyncRemote: (ctx) => getRemote(ctx),
  ConfigureSyncRemote: (ctx, req) => configureRemote(ctx, req),
  DeleteSyncRemote: (ctx) => removeRemote(ctx),
  SyncNow: (ctx) => syncNow(ctx),
  GetPreLinkRecords: (ctx) => preLinkRecords(ctx.db),
  AdoptPreLinkRecords: (ctx, req) => adoptPreLinkRecords(ctx, req),
};
