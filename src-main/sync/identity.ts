// A replica works as its remote user: on first contact (and every sync) the
// remote's user and organizations (GetMe) are written locally with the
// remote's ids, so pulled records, offline edits and their authors line up.
// Local writes on the replica must run as this caller (localCaller).
import type { Caller } from '../auth/caller';
import { loadCaller } from '../auth/identity';
import { ensureOrganizationRow, upsertActiveMembership, upsertRemoteOrganization, upsertRemoteUser } from '../auth/identityStore';
import type { Db } from '../db/database';
import type { RemoteCall } from './wireTypes';

export interface SyncIdentity {
  readonly userId: string;
  readonly userName: string;
  readonly organizations: readonly { id: string; name: string }[];
}

const IDENTITY_SETTING = 'sync.identity';

export function storedIdentity(db: Db): SyncIdentity | undefined {
  const text = db.setting(IDENTITY_SETTING);
  return text ? (JSON.parse(text) as SyncIdentity) : undefined;
}

/** The caller local writes on a replica run as (undefined before the first sync). */
export function localCaller(db: Db): Caller | undefined {
  const id = storedIdentity(db);
  return id && loadCaller(db, id.userId);
}

/**
 * localCaller, re-read only when the stored identity changes (it is rewritten,
 * with the memberships, by every sync): the replica's actingCaller runs on every request.
 */
export function cachedLocalCaller(db: Db): () => Caller | undefined {
  let text: string | undefined;
  let caller: Caller | undefined;
  return () => {
    const current = db.setting(IDENTITY_SETTING);
    if (current !== text) {
      text = current;
      caller = localCaller(db);
    }
    return caller;
  };
}

/** Writes a remote user locally with the remote's id (identityStore.ts); returns whether the user was inserted or renamed. */
export const upsertUser = upsertRemoteUser;

/** A pulled record references its organization (a foreign key): make sure a row exists (named once the identity or a listing names it). */
export const ensureOrganization = ensureOrganizationRow;

const upsertOrganization = upsertRemoteOrganization;

/** Returns whether the membership was added or made active again (false: already active). */
export const upsertMembership = upsertActiveMembership;

export async function adoptIdentity(db: Db, call: RemoteCall): Promise<SyncIdentity> {
  const me = await call('GetMe', {});
  const identity: SyncIdentity = {
    userId: me.userId,
    userName: me.userEmail,
    organizations: me.organizations.map((o) => ({ id: o.organizationId, name: o.organizationName })),
  };
  db.tx(() => {
    for (const o of identity.organizations) upsertOrganization(db, o.id, o.name);
    upsertUser(db, identity.userId, identity.userName);
    for (const o of identity.organizations) upsertMembership(db, identity.userId, o.id);
    const previous = storedIdentity(db);
    if (previous && previous.userId !== identity.userId) {
      // A replica belongs to one remote user: another key's owner would push edits under someone else's name.
      throw new Error(`this data directory syncs as ${previous.userName}; the API key belongs to ${identity.userName}`);
    }
    db.setSetting(IDENTITY_SETTING, JSON.stringify(identity));
  });
  return identity;
}
