// Authorization of one operation (called by services/invoke.ts for every
// operation with a caller): principal = the caller, action = the operation,
// resource = the record(s) the request names, else the organization it acts in.
// A record the caller cannot see is left to the handler (NOT_FOUND, as before);
// a denial is PERMISSION_DENIED naming the action and what decided.
import type { EntityJson } from '@cedar-policy/cedar-wasm/nodejs';
import { ApiError } from '../../../src-shared/errors';
import type { Db } from '../../db/database';
import { sameStamp, watchTables, type Stamp } from '../../db/tableWatch';
import { organizationIds, type Caller } from '../caller';
import { CEDAR_ACTIONS, type CedarAction } from './actions';
import { decide, decideOnOrganization, decisionForAnyRecord, type AnyRecordDecision, type Decision } from './decide';
import { cheaperForms, residualsToSql, type SqlCondition } from './residualSql';
import { parentRecords, principalEntity, recordEntities, recordPks, type NamedRecord } from './entities';
import { organizationPolicySet, type OrganizationPolicySet } from './policySets';
import type { RecordType } from './recordTypes';
import type { ListGate } from '../../filter/listGate';

export interface AuthorizationScope {
  readonly db: Db;
  readonly caller: Caller;
  /**
   * On a sync replica an organization none of whose policies has been pulled yet is decided by its remote (the
   * replica allows, the remote refuses on push); everywhere else no active policy means Cedar's default: deny.
   */
  readonly replica: boolean;
}

/** Keeps, of a list page's candidate rows (by pk), those the caller may see (filter/listGate.ts applies it). */
export type RowGate = ListGate;

class Decider {
  private readonly principals = new Map<string, ReturnType<typeof principalEntity>>();
  constructor(private readonly scope: AuthorizationScope) {}

  private readonly sets = new Map<string, OrganizationPolicySet>();
  private readonly uniformity = new Map<string, AnyRecordDecision>();

  /** Read once per decider (a list decides many rows against the same set; deciderFor keeps it while unchanged). */
  private set(organizationId: string): OrganizationPolicySet {
    let set = this.sets.get(organizationId);
    if (!set) this.sets.set(organizationId, (set = organizationPolicySet(this.scope.db, organizationId)));
    return set;
  }

  principal(organizationId: string) {
    let p = this.principals.get(organizationId);
    if (!p) this.principals.set(organizationId, (p = principalEntity(this.scope.db, this.scope.caller, organizationId)));
    return p;
  }

  /**
   * The decision on one resource. When the policies allow the action whatever the resource is (the default policy
   * does: the usual case), the resource is never loaded and Cedar is not called (a cached partial evaluation).
   */
  decide(action: CedarAction, organizationId: string, resource: () => EntityJson, row?: { type: RecordType; pk: number }): Decision {
    const uniform = this.uniform(action, organizationId);
    if (uniform.answer === 'allow') return ALLOWED;
    // A record whose policies compile to SQL is allowed by one indexed query; a refusal goes to Cedar, which names
    // the policies that decided.
    const sql = row && uniform.residuals && compiledResiduals(uniform, row.type);
    if (row && sql && this.scope.db.get(`SELECT 1 FROM ${row.type.table} t WHERE t.pk = ? AND ${sql.sql}`, [row.pk, ...sql.params]))
      return ALLOWED;
    return decide(this.set(organizationId), action, this.principal(organizationId), resource());
  }

  onOrganization(action: CedarAction, organizationId: string): Decision {
    if (this.uniform(action, organizationId).answer === 'allow') return ALLOWED;
    return decideOnOrganization(this.set(organizationId), action, this.principal(organizationId), organizationId);
  }

  uniform(action: CedarAction, organizationId: string): AnyRecordDecision {
    const key = `${action.name}\n${organizationId}`;
    let answer = this.uniformity.get(key);
    if (answer === undefined) {
      const set = this.set(organizationId);
      if (set.empty) answer = { answer: this.scope.replica ? 'allow' : 'deny' };
      else answer = decisionForAnyRecord(set, action, this.principal(organizationId));
      this.uniformity.set(key, answer);
    }
    return answer;
  }
}

const ALLOWED: Decision = { allowed: true, reasons: [], errors: [] };

/** What a decider reads: while none of these changed, its policy sets, principals and list shortcuts stay right. */
const AUTHORIZATION_TABLES = ['policies', 'principal_roles', 'principal_attributes'] as const;
const MAX_DECIDERS = 64;
const deciders = new WeakMap<Db, Map<string, { readonly decider: Decider; readonly stamp: Stamp }>>();

/**
 * The caller's decider, kept across requests until a policy, role or principal attribute changes (on this connection
 * or another): a list page then costs two map lookups and no statement for its authorization.
 */
function deciderFor(scope: AuthorizationScope): Decider {
  const watch = watchTables(scope.db, 'authorization', AUTHORIZATION_TABLES);
  if (!watch) return new Decider(scope);
  const key = JSON.stringify([scope.caller.userId, scope.caller.userName, organizationIds(scope.caller), scope.replica]);
  let byCaller = deciders.get(scope.db);
  if (!byCaller) deciders.set(scope.db, (byCaller = new Map()));
  const stamp = watch.stamp();
  const hit = byCaller.get(key);
  if (hit && sameStamp(hit.stamp, stamp)) return hit.decider;
  const decider = new Decider(scope);
  if (byCaller.size >= MAX_DECIDERS) byCaller.clear();
  byCaller.set(key, { decider, stamp });
  return decider;
}

function denied(action: CedarAction, target: string, decision: Decision): ApiError {
  const why = decision.reasons.length ? `forbidden by ${decision.reasons.map((r) => `"${r}"`).join(', ')}` : 'no active policy permits it';
  return ApiError.permissionDenied(
    `${action.name} (action group ${action.group}) on ${target} is not allowed by the organization's policies: ${why}`,
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The request's values of `field` (and `<field>s`): at its top level and one level down (an update's body, a batch's items). */
function fieldValues(req: Record<string, unknown>, field: string): string[] {
  const out: string[] = [];
  const take = (o: Record<string, unknown>) => {
    const one = o[field];
    if (typeof one === 'string' && one !== '') out.push(one);
    const many = o[`${field}s`];
    if (Array.isArray(many)) for (const v of many) if (typeof v === 'string' && v !== '') out.push(v);
  };
  take(req);
  for (const v of Object.values(req)) {
    if (isObject(v)) take(v);
    else if (Array.isArray(v)) for (const item of v) if (isObject(item)) take(item);
  }
  return out;
}

/**
 * The records of `type` the request names, by id (`annotationId`, `annotationIds`, `annotation.annotationId`,
 * `rules[].ruleId`), by another unique key (a rule's `clientKey`) or through a child's id (a report's `testStepId`).
 * Undefined when it names none the caller's organizations hold.
 */
function namedRecords(scope: AuthorizationScope, type: RecordType, req: Record<string, unknown>): NamedRecord[] | undefined {
  const organizations = organizationIds(scope.caller);
  const found = new Map<number, NamedRecord>();
  const add = (records: readonly NamedRecord[]) => records.forEach((r) => found.set(r.pk, r));
  add(recordPks(scope.db, type, fieldValues(req, type.idField), organizations));
  for (const key of type.keys ?? []) add(recordPks(scope.db, type, fieldValues(req, key.field), organizations, key.column));
  for (const child of type.children ?? []) add(parentRecords(scope.db, type, child, fieldValues(req, child.idField), organizations));
  return found.size ? [...found.values()] : undefined;
}

function checkRecords(
  decider: Decider,
  scope: AuthorizationScope,
  action: CedarAction,
  type: RecordType,
  records: readonly NamedRecord[],
): void {
  for (const record of records) {
    const decision = decider.decide(action, record.organizationId, () => recordEntities(scope.db, type, [record.pk])[0].entity, {
      type,
      pk: record.pk,
    });
    if (!decision.allowed) throw denied(action, `${type.entity}::"${record.id}"`, decision);
  }
}

/** Reading one record of each type: its Get<Type> action (`GetAnnotation`). */
const READ_ACTIONS: ReadonlyMap<string, CedarAction> = new Map(
  [...CEDAR_ACTIONS.values()].filter((a) => a.recordType && a.name === `Get${a.recordType.entity}`).map((a) => [a.recordType!.entity, a]),
);

// A channel is archived by `active` (false = archived).
const ARCHIVE_MASK_PATHS = new Set(['archived_date', 'deleted_date', 'is_archived', 'active']);

/** The archive action an update with an archiving mask path also needs: Archive<Type>, else BatchArchive<Type>s (channels). */
function archivingUpdate(name: string, req: Record<string, unknown>): CedarAction | undefined {
  if (!name.startsWith('Update')) return undefined;
  const mask = req.updateMask;
  if (!Array.isArray(mask) || !mask.some((p) => ARCHIVE_MASK_PATHS.has(String(p)))) return undefined;
  return CEDAR_ACTIONS.get(name.replace(/^Update/, 'Archive')) ?? CEDAR_ACTIONS.get(name.replace(/^Update(\w+)$/, 'BatchArchive$1s'));
}

/**
 * The actions an operation on a record is decided as, in this order (explain.ts shows the same): its own; for an
 * update whose mask archives or restores (UpdateAnnotation with deleted_date, UpdatePolicy with is_archived) also
 * Archive<Type>, so an archive rule cannot be sidestepped; and for anything but a read also the record's read
 * (Get<Type>): whatever else an operation on a record does, its answer shows the record (a write returns it, a child's
 * list shows its parent's content). Cedar has no partial answer, so a write on a record the caller may not read is
 * refused whole, before it changes anything.
 */
export function recordActions(name: string, action: CedarAction, type: RecordType, req: Record<string, unknown>): CedarAction[] {
  const actions = [action];
  const archive = archivingUpdate(name, req);
  if (archive) actions.push(archive);
  const read = READ_ACTIONS.get(type.entity);
  if (read && action.group !== 'read') actions.push(read);
  return actions;
}

/** The organizations the request acts in: the one it names (if the caller is in it), else all of the caller's. */
function organizationsOf(caller: Caller, req: Record<string, unknown>): string[] {
  const named = req.organizationId;
  const mine = organizationIds(caller);
  if (typeof named === 'string' && named !== '') return mine.includes(named) ? [named] : [];
  return mine;
}

/** Compiled once per cached partial evaluation and record type. */
const compiled = new WeakMap<AnyRecordDecision, Map<string, SqlCondition | undefined>>();
function compiledResiduals(decision: AnyRecordDecision, type: RecordType): SqlCondition | undefined {
  let byType = compiled.get(decision);
  if (!byType) compiled.set(decision, (byType = new Map()));
  if (!byType.has(type.entity)) byType.set(type.entity, residualsToSql(decision.residuals!, type));
  return byType.get(type.entity);
}

function rowGate(
  decider: Decider,
  action: CedarAction,
  type: RecordType,
  organizations: readonly string[],
  scope: AuthorizationScope,
): RowGate | undefined {
  const decisions = organizations.map((o) => decider.uniform(action, o));
  if (decisions.every((d) => d.answer === 'allow')) return undefined;
  // One organization (every list that names one): its residual policies compiled into the page's SQL when they can be.
  const only = decisions.length === 1 ? decisions[0] : undefined;
  const residual = only?.answer === 'deny' ? { sql: '0', params: [] } : only?.residuals && compiledResiduals(only, type);
  const sql = residual && cheaperForms(scope.db, residual);
  return {
    table: type.table,
    sql,
    keep(pks) {
      const allowed = new Set<number>();
      for (const record of recordEntities(scope.db, type, pks)) {
        if (decider.decide(action, record.organizationId, () => record.entity).allowed) allowed.add(record.pk);
      }
      return pks.map((pk) => allowed.has(pk));
    },
  };
}

/**
 * Throws PERMISSION_DENIED when the organization's policies do not allow the operation. For a list of records,
 * returns the gate that keeps only the rows the caller may see (undefined when the policies allow every row).
 */
export function authorizeOperation(scope: AuthorizationScope, name: string, request: unknown): RowGate | undefined {
  const action = CEDAR_ACTIONS.get(name);
  if (!action) return undefined;
  // The data directory's owner can always read and mend the policies: a forbid of everything must not lock the
  // organization out of the one place it can be undone.
  if (scope.caller.owner === true && action.recordType?.entity === 'Policy') return undefined;
  const req = (request && typeof request === 'object' ? request : {}) as Record<string, unknown>;
  const decider = deciderFor(scope);
  const type = action.recordType;
  const records = type && namedRecords(scope, type, req);
  if (type && records) {
    for (const each of recordActions(name, action, type, req)) checkRecords(decider, scope, each, type, records);
    return undefined;
  }
  const organizations = organizationsOf(scope.caller, req);
  if (organizations.length === 0) return undefined; // the handler answers (NOT_FOUND, or no organization)
  const decisions = organizations.map((o) => ({ o, d: decider.onOrganization(action, o) }));
  const isList = action.group === 'read' && /^(List|Count)/.test(name);
  // A list covers the organizations that allow it (rows are gated per organization); anything else needs them all.
  const refusal = isList ? (decisions.some((x) => x.d.allowed) ? undefined : decisions[0]) : decisions.find((x) => !x.d.allowed);
  if (refusal) throw denied(action, `Organization::"${refusal.o}"`, refusal.d);
  if (!isList || !type) return undefined;
  return rowGate(decider, action, type, organizations, scope);
}

/**
 * Of these records, the ids the caller may read: the decision a `Get<Type>` of each would make (records outside
 * the caller's organizations, or gone, are left out). The change feed's door (http/changeStream.ts).
 */
export function readableIds(scope: AuthorizationScope, type: RecordType, ids: readonly string[]): string[] {
  const action = CEDAR_ACTIONS.get(`Get${type.entity}`);
  if (!action) return [];
  const records = recordPks(scope.db, type, ids, organizationIds(scope.caller));
  if (scope.caller.owner === true && type.entity === 'Policy') return records.map((r) => r.id);
  const decider = deciderFor(scope);
  return records
    .filter(
      (r) => decider.decide(action, r.organizationId, () => recordEntities(scope.db, type, [r.pk])[0].entity, { type, pk: r.pk }).allowed,
    )
    .map((r) => r.id);
}
