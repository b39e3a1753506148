// Units (reference §11.6): create and list. A unit is its abbreviated name (the name it was created with), unique
// within its organization.
import { randomUUID } from 'node:crypto';
import type { CreateUnitInput, Unit } from '../../../src-shared/api/units';
import { nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { resolveOrganization } from '../../auth/caller';
import { loadByPks } from '../../db/childRows';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { unitListSpec } from './listSpecs';
import { insertUnit } from './referenceStores';
import { organizationScope } from './scope';

function loadUnits(db: Db, pks: readonly number[]): Unit[] {
  return loadByPks<{ pk: number; id: string; name: string }>(db, 'units', pks).map((r) => ({ unitId: r.id, abbreviatedName: r.name }));
}

export function createUnit(ctx: RequestContext, req: CreateUnitInput): { unit: Unit } {
  const organizationId = resolveOrganization(ctx.caller, req.organizationId);
  return ctx.db.tx(() => {
    const pk = insertUnit(ctx.db, {
      id: randomUUID(),
      organization_id: organizationId,
      name: req.name,
      created_date: nowMicros(),
      created_by_user_id: ctx.caller.userId,
    });
    if (pk === undefined) throw ApiError.alreadyExists('unit', req.name, `a unit named '${req.name}' already exists`);
    return { unit: loadUnits(ctx.db, [pk])[0] };
  });
}

export function listUnits(ctx: RequestContext, req: ListParams & { organizationId?: string }) {
  const scope = organizationScope(ctx.caller, req.organizationId);
  const page = listPage(ctx.db, unitListSpec, req, scope, ctx.engine.pageTokenSecret);
  return { units: loadUnits(ctx.db, page.keys), nextPageToken: page.nextPageToken };
}
