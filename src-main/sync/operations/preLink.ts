// Records made before the first link. A field engineer may work offline for
// days in the profile's own (local) organization and only then link the
// profile to the platform: from then on the owner acts as the remote user
// (identity.ts), so those records are no longer shown. They are never hidden
// silently: GetPreLinkRecords counts them (the Sync view and every `outpost
// sync` say so), and AdoptPreLinkRecords sends them to a remote organization
// as ordinary offline creates: each create runs through invoke's pipeline
// (validation, handler and the outbox recorder), as the remote user, and the
// local original goes, all in ONE transaction (a crash before the next sync
// loses nothing; a second adoption finds nothing left to adopt). A record that
// cannot go (its asset has no namesake in that organization, say) stays,
// counted, with the reason; adopting again retries it. Each resource says what
// it adopts and how (ReplicatedResource.preLink).
//
// Local organizations: those the remote user has never been a member of (the
// remote's own are written with its ids by every sync, identity.ts), so an
// organization the user has left on the remote is not mistaken for one.
import type { PreLinkRecords } from '../../../src-shared/api/sync';
import { ApiError } from '../../../src-shared/errors';
import type { OperationName } from '../../../src-shared/operations';
import type { Caller } from '../../auth/caller';
import type { Db } from '../../db/database';
import { StorageError } from '../../db/storageErrors';
import { isReplica, type RequestContext } from '../../engine';
import { invokeInTransaction } from '../../services/invoke';
import { localCaller, storedIdentity } from '../identity';
import type { ResourceCatalog } from '../catalog';
import type { Adoption, AdoptionResult, LeftBehind } from '../resource';
import { deleteHeld } from './localRecords';

interface Organization {
  readonly id: string;
  readonly name: string;
}

/** The organizations whose records are pre-link: none before a link; all of them while the remote user is unknown. */
export function localOrganizations(db: Db): Organization[] {
  if (!isReplica(db)) return [];
  const identity = storedIdentity(db);
  if (!identity) return db.all<Organization>('SELECT id, name FROM organizations ORDER BY created_date, id');
  return db.all<Organization>(
    'SELECT id, name FROM organizations WHERE id NOT IN (SELECT organization_id FROM memberships WHERE user_id = ?) ORDER BY created_date, id',
    [identity.userId],
  );
}

export function preLinkRecords(catalog: ResourceCatalog, db: Db): PreLinkRecords {
  const identity = storedIdentity(db);
  return countedIn(
    catalog,
    db,
    localOrganizations(db),
    identity !== undefined,
    (identity?.organizations ?? []).map((o) => ({ organizationId: o.id, name: o.name })),
  );
}

/**
 * Before the first link: what would stay local once linked to a remote whose user belongs to `remoteOrganizations`
 * (every organization here but those; identity not yet known here, so nothing can be adopted before a first sync).
 */
export function preLinkRecordsOnLinking(
  catalog: ResourceCatalog,
  db: Db,
  remoteOrganizations: readonly { organizationId: string; name: string }[],
): PreLinkRecords {
  const remote = new Set(remoteOrganizations.map((o) => o.organizationId));
  const here = db.all<Organization>('SELECT id, name FROM organizations ORDER BY created_date, id').filter((o) => !remote.has(o.id));
  return countedIn(catalog, db, here, false, remoteOrganizations);
}

function countedIn(
  catalog: ResourceCatalog,
  db: Db,
  local: readonly Organization[],
  identityKnown: boolean,
  remoteOrganizations: readonly { organizationId: string; name: string }[],
): PreLinkRecords {
  const ids = local.map((o) => o.id);
  const kinds =
    ids.length === 0
      ? []
      : catalog
          .preLinkRecords()
          .map((k) => {
            const count = k.count(db, ids);
            return {
              resource: k.resource,
              label: k.label,
              count,
              adoptable: 'adopt' in k.adoption,
              reason: 'kept' in k.adoption ? k.adoption.kept : '',
            };
          })
          .filter((k) => k.count > 0);
  return {
    identityKnown,
    localOrganizations: local.map((o) => ({ organizationId: o.id, name: o.name })),
    remoteOrganizations: [...remoteOrganizations],
    total: kinds.reduce((n, k) => n + k.count, 0),
    adoptable: kinds.reduce((n, k) => n + (k.adoptable ? k.count : 0), 0),
    kinds,
  };
}

/** The remote organization the records go to: the one asked for (in request field `field`), or the remote user's only one. */
export function targetOrganization(
  organizations: readonly Organization[],
  requested: string | undefined,
  field = 'organization_id',
): string {
  const names = organizations.map((o) => `${o.name} (${o.id})`).join(', ');
  if (requested) {
    if (!organizations.some((o) => o.id === requested))
      throw ApiError.invalid(field, `is not one of the remote user's organizations: ${names}`);
    return requested;
  }
  if (organizations.length === 1) return organizations[0].id;
  if (organizations.length === 0)
    throw ApiError.failedPrecondition('the remote user belongs to no organization: there is nowhere to send the records');
  throw ApiError.invalid(field, `is required: the remote user belongs to ${organizations.length} organizations: ${names}`);
}

export function adoptPreLinkRecords(catalog: ResourceCatalog, ctx: RequestContext, req: { organizationId?: string }): AdoptionResult {
  const { db } = ctx;
  const recorder = ctx.engine.replica?.writeRecorder();
  if (!recorder || !isReplica(db))
    throw ApiError.failedPrecondition(
      'this data directory is not linked to a remote: its records are simply local (link one first: outpost sync --remote URL)',
    );
  const identity = storedIdentity(db);
  const acting = localCaller(db);
  if (!identity || !acting)
    throw ApiError.failedPrecondition('the remote user is not known yet: sync once after linking (the first sync reads it), then adopt');
  const organizationId = targetOrganization(identity.organizations, req.organizationId);
  const local = localOrganizations(db);
  const localIds = local.map((o) => o.id);
  const asRemoteUser: RequestContext = { ...ctx, caller: { ...acting, owner: true } };
  // Reads of the originals: as a member of their (local) organizations.
  const localReader: Caller = { ...acting, organizations: local, owner: true };
  const localUserIds = new Set(
    db
      .all<{ user_id: string }>('SELECT DISTINCT user_id FROM memberships WHERE organization_id IN (SELECT value FROM json_each(?))', [
        JSON.stringify(localIds),
      ])
      .map((r) => r.user_id),
  );
  localUserIds.delete(acting.userId);

  // Each adopted create runs through invoke's pipeline (validation, id translation, the remote organization's
  // policies, the outbox recorder, storage errors) inside the adoption's one transaction.
  const write = (operation: string, request: unknown): unknown => {
    const name = operation as OperationName;
    if (!recorder.records(name) || catalog.specFor(name)?.transfer?.asyncWrite)
      throw ApiError.internal(`${name} cannot be adopted: only synchronous replicated writes can`);
    return invokeInTransaction(asRemoteUser, name, request);
  };

  const adopted: AdoptionResult['adopted'] = [];
  const leftBehind: LeftBehind[] = [];
  if (localIds.length > 0) {
    db.tx(() => {
      const adoption: Adoption = {
        ctx: asRemoteUser,
        localCtx: { ...ctx, caller: localReader },
        organizationId,
        localOrganizationIds: localIds,
        localUserIds,
        write,
        moved: new Map(),
        leave: (record) => leftBehind.push(record),
        attempt(record, fn) {
          try {
            db.tx(fn); // a savepoint: a record the services refuse leaves nothing half-made
            return true;
          } catch (e) {
            // A storage failure is no refusal of this record: the whole adoption stops, nothing adopted.
            if (!(e instanceof ApiError) || e instanceof StorageError) throw e;
            leftBehind.push({ ...record, reason: e.message });
            return false;
          }
        },
        deleteHeld: (refs) => deleteHeld(catalog, db, refs),
      };
      for (const kind of catalog.preLinkRecords()) {
        const count = 'adopt' in kind.adoption ? kind.adoption.adopt(adoption) : 0;
        if (count > 0) adopted.push({ resource: kind.resource, label: kind.label, count });
      }
    });
  }
  return { adopted, leftBehind, remaining: preLinkRecords(catalog, db) };
}
