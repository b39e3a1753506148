// The remote profile and "sync now" as operations. Storage goes through the
// replica's remoteProfile (URL setting + key in the SecretStore), the
// background scheduler through its syncController, present while a host (the
// desktop app, `outpost serve`) runs background sync.
import type { SyncRemote, SyncRemoteCheck, SyncStatus } from '../../../src-shared/api/sync';
import { ApiError } from '../../../src-shared/errors';
import { isReplica, type RemoteProfileStore, type RequestContext } from '../../engine';
import type { ResourceCatalog } from '../catalog';
import { checkLink } from '../linkCheck';
import { syncStatus } from '../status';
import { preLinkRecords, preLinkRecordsOnLinking, targetOrganization } from './preLink';

/** The store of the replica these operations came with. */
function profileOf(ctx: RequestContext): RemoteProfileStore {
  if (!ctx.engine.replica) throw ApiError.internal('sync is not attached to this engine');
  return ctx.engine.replica.remoteProfile;
}

export async function getRemote(ctx: RequestContext): Promise<{ remote: SyncRemote | null }> {
  return { remote: (await profileOf(ctx).read()) ?? null };
}

/** The link check alone (linkCheck.ts), storing nothing; with what a first link would leave local. */
export async function testRemote(
  catalog: ResourceCatalog,
  ctx: RequestContext,
  req: { baseUrl: string; apiKey?: string },
): Promise<SyncRemoteCheck> {
  const store = profileOf(ctx);
  const link = await store.candidate(req.baseUrl, req.apiKey);
  const who = await checkLink(ctx.db, link);
  return {
    baseUrl: link.baseUrl,
    userId: who.userId,
    userEmail: who.userEmail,
    organizations: [...who.organizations],
    linked: (await store.read()) !== undefined,
    staysLocal: isReplica(ctx.db) ? preLinkRecords(catalog, ctx.db) : preLinkRecordsOnLinking(catalog, ctx.db, who.organizations),
  };
}

export async function configureRemote(
  ctx: RequestContext,
  req: { baseUrl: string; apiKey?: string; adoptPreLinkRecords?: { organizationId?: string } },
): Promise<{ remote: SyncRemote }> {
  // Checked before anything is stored: a link that cannot work is refused, saying which step failed; so is an
  // adoption into an organization that is not the key user's. The choice is stored with the link (pendingAdoption.ts).
  const remote = await profileOf(ctx).save(req.baseUrl, req.apiKey, async (link) => {
    const who = await checkLink(ctx.db, link);
    if (!req.adoptPreLinkRecords) return {};
    const organizations = who.organizations.map((o) => ({ id: o.organizationId, name: o.name }));
    const organizationId = targetOrganization(
      organizations,
      req.adoptPreLinkRecords.organizationId,
      'adopt_pre_link_records.organization_id',
    );
    return { adoptPreLinkRecords: { organizationId } };
  });
  // A new key lifts an authentication stop; a first remote starts background sync.
  await ctx.engine.replica?.syncController()?.remoteChanged();
  return { remote };
}

export async function removeRemote(ctx: RequestContext): Promise<Record<string, never>> {
  // Background runs stop before the key disappears under them.
  await ctx.engine.replica?.syncController()?.remoteRemoved();
  await profileOf(ctx).remove();
  return {};
}

export async function syncNow(ctx: RequestContext): Promise<SyncStatus> {
  const controller = ctx.engine.replica?.syncController();
  if (!controller)
    throw ApiError.failedPrecondition(
      'sync runs are not available here: this engine has no background sync (run `outpost sync`, or start `outpost serve` without --no-sync)',
    );
  const remote = await profileOf(ctx).read();
  if (!remote) throw ApiError.failedPrecondition('no remote is configured: configure one first (ConfigureSyncRemote)');
  if (!remote.hasApiKey)
    throw ApiError.failedPrecondition(`no API key is stored for ${remote.baseUrl}: configure the remote again with its key`);
  controller.syncNow();
  const status = syncStatus(ctx.db);
  // The run has started; its first status write may not have happened yet.
  return status.state === 'syncing' ? status : { ...status, state: 'syncing', phase: 'connecting' };
}
