// Policies: Cedar text checked by the Cedar parser; every configuration change
// makes a new stored version (version + 1, new policy_version_id, notes and a
// generated change message). Name / description / archive changes update the
// policy in place (modified_date moves, the version does not).
import { randomUUID } from 'node:crypto';
import type { CreatePolicyInput, Policy, UpdatePolicyInput } from '../../../src-shared/api/policies';
import { nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { organizationIds, resolveOrganization, visibleTo } from '../../auth/caller';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { checkCedarPolicy } from './cedarText';
import { changeMessage, creationMessage, type PolicyField } from './changeMessage';
import { policyListSpec, policyVersionListSpec } from './policyListSpecs';
import { loadPolicies, policyToWire, versionToWire, type PolicyRow, type PolicyVersionRow } from './policyRows';
import { insertPolicyRow, insertPolicyVersionRow, setPolicyColumns, setPolicyVersionNotes } from '../../auth/policyStore';

/** update_mask paths UpdatePolicy may change (reference §7). */
export const UPDATABLE_PATHS = ['name', 'description', 'configuration', 'is_archived', 'version_notes'] as const;
type UpdatablePath = (typeof UPDATABLE_PATHS)[number];
const IMMUTABLE_PATHS = new Set([
  'policy_id',
  'organization_id',
  'created_by_user_id',
  'modified_by_user_id',
  'created_date',
  'modified_date',
  'policy_version_id',
  'archived_date',
  'version',
  'generated_change_message',
]);

/** Parses the text with Cedar; failure is INVALID_ARGUMENT on `field` with Cedar's message and location. */
function parsedPolicies(text: string, field: string): readonly string[] {
  const check = checkCedarPolicy(text);
  if (!check.ok) throw ApiError.invalid(field, check.message);
  return check.policies;
}

/** The statements of stored text; text a newer Cedar no longer parses counts as none rather than blocking the fix. */
function storedPolicies(text: string): readonly string[] {
  const check = checkCedarPolicy(text);
  return check.ok ? check.policies : [];
}

export function validatePolicy(cedarPolicy: string): { valid: boolean; failureMessage?: string } {
  const check = checkCedarPolicy(cedarPolicy);
  return check.ok ? { valid: true } : { valid: false, failureMessage: check.message };
}

function findVisible(ctx: RequestContext, id: string): PolicyRow {
  const scope = visibleTo(ctx.caller, 'organization_id');
  const row = ctx.db.get<PolicyRow>(`SELECT * FROM policies WHERE id = ? AND ${scope.sql}`, [id, ...scope.params]);
  if (!row) throw ApiError.notFound('policy', id);
  return row;
}

const getOne = (db: Db, pk: number): Policy => loadPolicies(db, [pk])[0];

interface NewVersion {
  readonly id: string;
  readonly policyPk: number;
  readonly version: number;
  readonly text: string;
  readonly notes: string | null;
  readonly message: string;
  readonly userId: string;
  readonly now: number;
}

function insertVersion(db: Db, v: NewVersion): void {
  insertPolicyVersionRow(db, {
    id: v.id,
    policy_pk: v.policyPk,
    version: v.version,
    version_notes: v.notes,
    generated_change_message: v.message,
    cedar_policy: v.text,
    created_by_user_id: v.userId,
    created_date: v.now,
  });
}

export function createPolicy(ctx: RequestContext, req: CreatePolicyInput): { policy: Policy } {
  const { db, caller } = ctx;
  const organizationId = resolveOrganization(caller, req.organizationId);
  if (req.name.trim() === '') throw ApiError.invalid('name', 'must not be blank');
  const text = req.configuration.cedarPolicy;
  const policies = parsedPolicies(text, 'configuration.cedar_policy');
  const message = creationMessage(text, policies);
  return db.tx(() => {
    const now = nowMicros();
    const versionId = randomUUID();
    const pk = insertPolicyRow(db, {
      id: randomUUID(),
      organization_id: organizationId,
      name: req.name,
      description: req.description ?? null,
      cedar_policy: text,
      policy_version_id: versionId,
      version: 1,
      version_notes: req.versionNotes ?? null,
      generated_change_message: message,
      created_by_user_id: caller.userId,
      modified_by_user_id: caller.userId,
      created_date: now,
      modified_date: now,
    });
    insertVersion(db, {
      id: versionId,
      policyPk: pk,
      version: 1,
      text,
      notes: req.versionNotes ?? null,
      message,
      userId: caller.userId,
      now,
    });
    return { policy: getOne(db, pk) };
  });
}

export function getPolicy(ctx: RequestContext, id: string): { policy: Policy } {
  return { policy: policyToWire(findVisible(ctx, id)) };
}

function checkMask(paths: readonly string[] = []): UpdatablePath[] {
  if (paths.length === 0) throw ApiError.invalid('update_mask', `is required: name the fields to update (${UPDATABLE_PATHS.join(', ')})`);
  const out = new Set<UpdatablePath>();
  for (const p of paths) {
    // PolicyConfiguration has one field, so its sub-path means the same as the whole.
    const path = p === 'configuration.cedar_policy' ? 'configuration' : p;
    if ((UPDATABLE_PATHS as readonly string[]).includes(path)) out.add(path as UpdatablePath);
    else if (IMMUTABLE_PATHS.has(path)) throw ApiError.invalid('update_mask', `field '${p}' cannot be updated`);
    else throw ApiError.invalid('update_mask', `unknown field '${p}'; updatable fields: ${UPDATABLE_PATHS.join(', ')}`);
  }
  return [...out];
}

export function updatePolicy(ctx: RequestContext, req: UpdatePolicyInput): { policy: Policy } {
  const { db, caller } = ctx;
  const patch = req.policy;
  const paths = checkMask(req.updateMask);
  const has = (p: UpdatablePath) => paths.includes(p);
  if (has('name') && (!patch.name || patch.name.trim() === '')) throw ApiError.invalid('policy.name', 'must not be empty');
  let newText: string | undefined;
  let newPolicies: readonly string[] = [];
  if (has('configuration')) {
    newText = patch.configuration?.cedarPolicy;
    if (newText === undefined)
      throw ApiError.invalid('policy.configuration.cedar_policy', 'is required when configuration is named in update_mask');
    newPolicies = parsedPolicies(newText, 'policy.configuration.cedar_policy');
  }
  return db.tx(() => {
    const row = findVisible(ctx, patch.policyId);
    const next: PolicyRow = { ...row };
    const changed: PolicyField[] = [];
    const now = nowMicros();
    if (has('name') && patch.name !== row.name) {
      next.name = patch.name!;
      changed.push('name');
    }
    if (has('description') && (patch.description ?? null) !== row.description) {
      next.description = patch.description ?? null;
      changed.push('description');
    }
    if (has('is_archived')) {
      const archive = patch.isArchived ?? false;
      if (archive !== (row.archived_date !== null)) next.archived_date = archive ? now : null;
    }
    // `version_notes` in the mask (an ordinary optional field of Policy): the notes of the version current after
    // this update, that is of the new version when the configuration changes too, else of the current one.
    let notesChanged = false;
    if (has('version_notes') && !(newText !== undefined && newText !== row.cedar_policy)) {
      const notes = patch.versionNotes ?? null;
      if (notes !== row.version_notes) {
        next.version_notes = notes;
        notesChanged = true;
        setPolicyVersionNotes(db, row.policy_version_id, notes);
      }
    }
    // Only a different configuration text makes a version; the same text again is a no-op (safe to retry).
    if (newText !== undefined && newText !== row.cedar_policy) {
      changed.push('configuration');
      const message = changeMessage(changed, {
        beforeText: row.cedar_policy,
        afterText: newText,
        beforePolicies: storedPolicies(row.cedar_policy),
        afterPolicies: newPolicies,
      });
      const notes = (has('version_notes') ? patch.versionNotes : undefined) ?? req.versionNotes ?? patch.versionNotes ?? null;
      next.version = row.version + 1;
      next.cedar_policy = newText;
      next.version_notes = notes;
      next.generated_change_message = message;
      next.policy_version_id = randomUUID();
      insertVersion(db, {
        id: next.policy_version_id,
        policyPk: row.pk,
        version: next.version,
        text: newText,
        notes,
        message,
        userId: caller.userId,
        now,
      });
    }
    // Nothing changed (e.g. a retried update): leave the record, and its modified_date, alone.
    if (changed.length === 0 && !notesChanged && next.archived_date === row.archived_date) return { policy: policyToWire(row) };
    setPolicyColumns(db, row.pk, {
      name: next.name,
      description: next.description,
      cedar_policy: next.cedar_policy,
      policy_version_id: next.policy_version_id,
      version: next.version,
      version_notes: next.version_notes,
      generated_change_message: next.generated_change_message,
      archived_date: next.archived_date,
      modified_by_user_id: caller.userId,
      modified_date: now,
    });
    return { policy: getOne(db, row.pk) };
  });
}

export function setPolicyArchived(ctx: RequestContext, id: string, archived: boolean): { policy: Policy } {
  return ctx.db.tx(() => {
    const row = findVisible(ctx, id);
    if ((row.archived_date !== null) !== archived) {
      const now = nowMicros();
      setPolicyColumns(ctx.db, row.pk, {
        archived_date: archived ? now : null,
        modified_by_user_id: ctx.caller.userId,
        modified_date: now,
      });
    }
    return { policy: getOne(ctx.db, row.pk) };
  });
}

export function listPolicies(ctx: RequestContext, req: ListParams & { includeArchived?: boolean }) {
  // ListPoliciesRequest has no organization_id: list every organization the caller belongs to.
  const scope = visibleTo(ctx.caller, 't.organization_id');
  const includeArchived = req.includeArchived === true;
  const sql = includeArchived ? scope.sql : `${scope.sql} AND t.archived_date IS NULL`;
  const page = listPage(
    ctx.db,
    policyListSpec,
    req,
    { sql, params: scope.params, fingerprint: [organizationIds(ctx.caller), includeArchived], gate: ctx.rowGate },
    ctx.engine.pageTokenSecret,
  );
  return { policies: loadPolicies(ctx.db, page.keys), nextPageToken: page.nextPageToken };
}

export function listPolicyVersions(ctx: RequestContext, req: ListParams & { policyId: string }) {
  const policy = findVisible(ctx, req.policyId);
  const page = listPage(
    ctx.db,
    policyVersionListSpec,
    req,
    { sql: 't.policy_pk = ?', params: [policy.pk], fingerprint: [policy.id] },
    ctx.engine.pageTokenSecret,
  );
  const rows = ctx.db.all<PolicyVersionRow>('SELECT * FROM policy_versions WHERE pk IN (SELECT value FROM json_each(?))', [
    JSON.stringify(page.keys),
  ]);
  const byPk = new Map(rows.map((r) => [r.pk, r]));
  return { policyVersions: page.keys.map((pk) => versionToWire(byPk.get(pk)!, policy.id)), nextPageToken: page.nextPageToken };
}
