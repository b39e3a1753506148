// Policies as a replicated resource. Synced fields: `name`, `description`,
// `configuration` (the Cedar text) and `is_archived`. A configuration change
// makes a new version on whichever side writes it; the local row takes the
// remote's current version (id, number, notes, change message) whenever its
// text matches the remote's, and that version is kept in policy_versions.
import type { Policy } from '../../../../src-shared/api/policies';
import type { Db } from '../../../db/database';
import { loadPolicies, type PolicyRow } from '../../../services/policies/policyRows';
import type { UPDATABLE_PATHS as POLICY_UPDATABLE_PATHS } from '../../../services/policies/policiesService';
import {
  deleteOtherPolicyVersion,
  deletePolicyVersion,
  deletePolicyVersionsAbove,
  deleteStandInPolicyVersions,
  insertPolicyVersionRow,
  renumberCurrentPolicyVersion,
  setPolicyColumns,
  upsertRemotePolicy,
} from '../../../auth/policyStore';
import { storedState, type Applier, type ApplyContext, type ApplyOptions } from '../../apply';
import { adoptInflightCreate, madeSince } from '../../inflightCreates';
import { noteForRefetch } from '../../refetchNotes';
import { forgetBase } from '../../merge';
import { differing, localFields, mergeRecord, rowOf, syncedFields, type RecordShape } from '../../recordShape';
import { hasPending, ownFields, pendingFields } from '../../outbox';
import { wireMicros } from '../../time';
import { ensureOrganization } from '../../identity';

export const POLICY = 'policy';

/**
 * A policy's synced fields (absent optionals as null), and where each lands in its row. (Version notes, updatable
 * too, are no field: they describe a configuration change.)
 */
export const POLICY_SHAPE: RecordShape<Policy, Exclude<(typeof POLICY_UPDATABLE_PATHS)[number], 'version_notes'>> = {
  kind: POLICY,
  table: 'policies',
  load: loadPolicies,
  setColumns: setPolicyColumns,
  fields: {
    name: { of: (p) => p.name, columns: (p) => ({ name: p.name }) },
    description: { of: (p) => p.description ?? null, columns: (p) => ({ description: p.description ?? null }) },
    configuration: {
      of: (p) => p.configuration.cedarPolicy,
      columns: (p) => ({ cedar_policy: p.configuration.cedarPolicy }),
      paths: ['configuration', 'configuration.cedar_policy'],
    },
    is_archived: {
      of: (p) => p.isArchived,
      columns: (p) => ({ archived_date: p.isArchived ? (wireMicros(p.archivedDate) ?? Date.now() * 1000) : null }),
    },
  },
};

const localRow = (db: Db, id: string) => db.get<PolicyRow>('SELECT * FROM policies WHERE id = ?', [id]);

/**
 * The remote's current version as a stored version. A local version made offline with the same number gives way,
 * unless it is the row's current version with a configuration still to push: that one stands for the version the
 * remote will make of it, so it moves above the remote's numbers (where the push result will replace it).
 */
function keepVersion(db: Db, pk: number, p: Policy): void {
  const version = p.version ?? 1;
  deleteOtherPolicyVersion(db, pk, version, p.policyVersionId);
  insertPolicyVersionRow(
    db,
    {
      id: p.policyVersionId,
      policy_pk: pk,
      version,
      version_notes: p.versionNotes ?? null,
      generated_change_message: p.generatedChangeMessage ?? '',
      cedar_policy: p.configuration.cedarPolicy,
      created_by_user_id: p.modifiedByUserId,
      created_date: wireMicros(p.modifiedDate),
      pulled: 1,
    },
    { ifAbsent: true },
  );
  const current = db.get<{ id: string; version: number }>(
    'SELECT v.id, v.version FROM policies p JOIN policy_versions v ON v.id = p.policy_version_id WHERE p.pk = ?',
    [pk],
  );
  if (current && current.id !== p.policyVersionId && current.version === version) {
    const next = db.get<{ n: number }>('SELECT max(version) + 1 AS n FROM policy_versions WHERE policy_pk = ?', [pk])!.n;
    renumberCurrentPolicyVersion(db, pk, current.id, next);
  }
}

/** Everything a pull may write of one policy: its row and its versions. */
const stateOf = (db: Db, pk: number) =>
  storedState(db, [
    ['SELECT * FROM policies WHERE pk = ?', [pk]],
    ['SELECT * FROM policy_versions WHERE policy_pk = ? ORDER BY pk', [pk]],
  ]);

function upsertRow(db: Db, p: Policy): void {
  ensureOrganization(db, p.organizationId);
  upsertRemotePolicy(db, {
    id: p.policyId,
    organization_id: p.organizationId,
    ...rowOf(POLICY_SHAPE, p),
    policy_version_id: p.policyVersionId,
    version: p.version ?? 1,
    version_notes: p.versionNotes ?? null,
    generated_change_message: p.generatedChangeMessage ?? null,
    created_by_user_id: p.createdByUserId,
    modified_by_user_id: p.modifiedByUserId,
    created_date: wireMicros(p.createdDate),
    modified_date: wireMicros(p.modifiedDate),
    // (Taken whole: dated as the remote dates it.)
    archived_date: wireMicros(p.archivedDate),
  });
  keepVersion(db, localRow(db, p.policyId)!.pk, p);
}

/**
 * Whether remote policy `p` is the copy a create of ours may have made (a policy carries no marker): ours, made at or
 * after the create first left (`since`, server micros), with the name and text the create sent. The push's lookup
 * after an unknown outcome and the pull's adoption (inflightCreates.ts) ask this first.
 */
export function isCopyOfCreate(
  request: { name: string; configuration: { cedarPolicy: string } },
  since: number | null,
  p: Policy,
  userId: string,
): boolean {
  return madeSince(p, since, userId) && p.name === request.name && p.configuration.cedarPolicy === request.configuration.cedarPolicy;
}

function applyPolicy(ctx: ApplyContext, p: Policy): void {
  const { db } = ctx;
  if (!localRow(db, p.policyId)) {
    const arrival = adoptInflightCreate(
      ctx,
      'CreatePolicy',
      POLICY,
      { ...p, id: p.policyId },
      (req: Parameters<typeof isCopyOfCreate>[0], since) => isCopyOfCreate(req, since, p, ctx.userId),
    );
    if (arrival === 'left') {
      // Pulled by modified date, it would not be listed again: read again by id at each pull until the lookup has settled it (refetch.ts).
      noteForRefetch(db, POLICY, p.policyId);
      return;
    }
  }
  const row = localRow(db, p.policyId);
  if (!row || !hasPending(db, POLICY, row.id, ctx.excludeSeq)) {
    if (row && !ctx.force && row.modified_date === wireMicros(p.modifiedDate) && row.policy_version_id === p.policyVersionId) {
      ctx.stats.unchanged++;
      return;
    }
    const local = row && localFields(POLICY_SHAPE, db, row.pk);
    upsertRow(db, p);
    // With no edit of ours waiting, a version above the remote's is one a refused or dismissed edit made here.
    // (Only when the remote says which version is current: the field is optional on the wire.)
    if (row && p.version !== undefined) deletePolicyVersionsAbove(db, row.pk, p.version);
    // Nothing of ours left to send: the versions made here for our edits are done standing in. The remote made its
    // own of each text that landed, under ids it tells us only while current (a lost answer hides one for good).
    if (row) deleteStandInPolicyVersions(db, row.pk, p.policyVersionId);
    if (row) forgetBase(db, POLICY, row.id);
    // Counted as news only if a synced field differs: our own pushed edit comes back with the server's dates.
    if (!row) ctx.stats.inserted++;
    else if (differing(POLICY_SHAPE, local!, syncedFields(POLICY_SHAPE, p)).length === 0) ctx.stats.unchanged++;
    else ctx.stats.updated++;
    return;
  }
  // Merged: counted as updated only when something was written (a re-read of the version already merged writes nothing).
  const before = stateOf(db, row.pk);
  // With a configuration of ours on its way, the current version is the one made here for it (a stand-in).
  const standIn =
    pendingFields(db, POLICY, row.id, ctx.excludeSeq).has('configuration') || ownFields(ctx, POLICY, row.id).has('configuration')
      ? row.policy_version_id
      : null;
  mergeRecord(ctx, POLICY_SHAPE, row, p, wireMicros(p.modifiedDate) ?? 0);
  // Once the texts agree the remote's version is current, and the stand-in made here for our text (or for the losing
  // one) goes: the remote made its own version of it. The remote's version then takes the place of a local one with its number.
  if (localRow(db, row.id)!.cedar_policy === p.configuration.cedarPolicy) {
    setPolicyColumns(db, row.pk, {
      policy_version_id: p.policyVersionId,
      version: p.version ?? 1,
      version_notes: p.versionNotes ?? null,
      generated_change_message: p.generatedChangeMessage ?? null,
    });
    if (standIn !== null && standIn !== p.policyVersionId) deletePolicyVersion(db, standIn);
  }
  keepVersion(db, row.pk, p);
  if (!hasPending(db, POLICY, row.id, ctx.excludeSeq))
    setPolicyColumns(db, row.pk, { modified_date: wireMicros(p.modifiedDate), modified_by_user_id: p.modifiedByUserId });
  if (stateOf(db, row.pk) !== before) ctx.stats.updated++;
  else ctx.stats.unchanged++;
}

/** Applies remote policies in their own transaction (pull pages, push results). */
export function applyRemotePolicies(applier: Applier, list: readonly Policy[], options: ApplyOptions = {}): void {
  applier.db.tx(() => {
    const ctx = applier.context(options);
    for (const p of list) applyPolicy(ctx, p);
  });
}
