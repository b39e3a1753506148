// Sync extension operations -> syncService, over the replica's resources.
import type { syncOperations } from '../../../src-shared/api/sync';
import type { HandlerMap } from '../../services/common/handler';
import type { ResourceCatalog } from '../catalog';
import { syncStatus } from '../status';
import { adoptPreLinkRecords, preLinkRecords } from './preLink';
import { configureRemote, getRemote, removeRemote, syncNow, testRemote } from './remoteService';
import { dismissConflict, dismissEntry, listConflicts, listOutbox, retryEntry, undoConflict } from './syncService';

export function syncHandlers(catalog: ResourceCatalog): HandlerMap<typeof syncOperations> {
  return {
    GetSyncStatus: (ctx) => syncStatus(ctx.db),
    ListSyncConflicts: (ctx, req) => listConflicts(catalog, ctx, req),
    UndoSyncConflict: (ctx, req) => undoConflict(catalog, ctx, req.conflictId),
    DismissSyncConflict: (ctx, req) => dismissConflict(catalog, ctx, req.conflictId),
    ListSyncOutbox: (ctx, req) => listOutbox(catalog, ctx, req),
    RetrySyncEntry: (ctx, req) => retryEntry(catalog, ctx, req.seq),
    DismissSyncEntry: (ctx, req) => dismissEntry(catalog, ctx, req.seq, req.discardRecord === true),
    GetSyncRemote: (ctx) => getRemote(ctx),
    TestSyncRemote: (ctx, req) => testRemote(catalog, ctx, req),
    ConfigureSyncRemote: (ctx, req) => configureRemote(ctx, req),
    DeleteSyncRemote: (ctx) => removeRemote(ctx),
    SyncNow: (ctx) => syncNow(ctx),
    GetPreLinkRecords: (ctx) => preLinkRecords(catalog, ctx.db),
    AdoptPreLinkRecords: (ctx, req) => adoptPreLinkRecords(catalog, ctx, req),
  };
}
