// CreateRule / UpdateRule: create-or-update of the full rule model with full
// replacement of the listed fields, and one new rule version (with a full
// snapshot and a generated change message) for every change.
import { randomUUID } from 'node:crypto';
import { metadataInputToRow, metadataRowToWire } from '../../../src-shared/api/metadata';
import { ActionKind, type UpdateActionInput, type UpdateConditionInput, type UpdateRuleInput } from '../../../src-shared/api/rules';
import { nowMicros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { resolveOrganization } from '../../auth/caller';
import { loadLists, loadMetadata } from '../../db/childRows';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import {
  canonical,
  changeMessage,
  channelReferenceToWire,
  configurationToWire,
  creationMessage,
  emptySummary,
  expressionToWire,
  hasChanges,
  type ChangeSummary,
} from './ruleDefinition';
import { findRuleByClientKeyIn, findVisibleRule } from './ruleLookup';
import { loadConditions, loadRules, type ActionRow, type ConditionRow, type RuleRow } from './ruleRows';
import {
  deleteRuleAction,
  deleteRuleCondition,
  insertRule,
  insertRuleAction,
  insertRuleCondition,
  insertRuleVersion,
  replaceRuleAssetConfiguration,
  replaceRuleContextualChannels,
  replaceRuleMetadata,
  setRuleActionColumns,
  setRuleColumns,
  setRuleConditionColumns,
  setRuleVersionSnapshot,
} from './ruleStore';

export interface UpsertOptions {
  /** `create`: always a new rule (CreateRule); `upsert`: update when rule_id/client_key names one (UpdateRule). */
  readonly mode: 'create' | 'upsert';
  /** Prefix of field names in errors (`update.` for CreateRule, `rules[3].` in a batch). */
  readonly prefix: string;
}

export interface UpsertResult {
  readonly ruleId: string;
  readonly created: boolean;
  readonly name: string;
  readonly clientKey: string;
}

interface Stamp {
  readonly now: number;
  readonly userId: string;
}

/** '' means unset for client keys. */
const clientKeyOf = (req: UpdateRuleInput) => (req.clientKey && req.clientKey.trim() !== '' ? req.clientKey : undefined);

function assertClientKeyFree(db: Db, organizationId: string, clientKey: string, field: string): void {
  if (db.get('SELECT 1 FROM rules WHERE organization_id = ? AND client_key = ?', [organizationId, clientKey])) {
    throw ApiError.alreadyExists('rule', clientKey, `${field}: a rule with client_key '${clientKey}' already exists in this organization`);
  }
}

// ------------------------------------------------------------ child rows

function writeAssetConfiguration(db: Db, pk: number, req: UpdateRuleInput): void {
  replaceRuleAssetConfiguration(db, pk, req.assetConfiguration?.assetIds ?? [], req.assetConfiguration?.tagIds ?? []);
}

function writeContextualChannels(db: Db, pk: number, req: UpdateRuleInput): void {
  replaceRuleContextualChannels(
    db,
    pk,
    (req.contextualChannels?.channels ?? [])
      .map(channelReferenceToWire)
      .map((w) => ({ name: w.name, component: w.component, calculatedChannelVersionId: w.calculatedChannelVersionId ?? null })),
  );
}

function insertAction(db: Db, rulePk: number, conditionPk: number, position: number, a: UpdateActionInput, stamp: Stamp): void {
  insertRuleAction(db, {
    id: randomUUID(),
    condition_pk: conditionPk,
    rule_pk: rulePk,
    position,
    action_type: ActionKind.numbers[a.actionType],
    configuration: JSON.stringify(configurationToWire(a.configuration)),
    version_id: randomUUID(),
    created_date: stamp.now,
    modified_date: stamp.now,
    created_by_user_id: stamp.userId,
    modified_by_user_id: stamp.userId,
  });
}

function insertCondition(db: Db, rulePk: number, position: number, c: UpdateConditionInput, stamp: Stamp, field: string): void {
  (c.actions ?? []).forEach((a, j) => {
    if (a.ruleActionId)
      throw ApiError.invalid(
        `${field}.actions[${j}].rule_action_id`,
        `'${a.ruleActionId}' is not an action of this condition (a new condition has no actions yet)`,
      );
  });
  const conditionPk = insertRuleCondition(db, {
    id: randomUUID(),
    rule_pk: rulePk,
    position,
    version_id: randomUUID(),
    expression: JSON.stringify(expressionToWire(c.expression)),
    created_date: stamp.now,
    modified_date: stamp.now,
    created_by_user_id: stamp.userId,
    modified_by_user_id: stamp.userId,
  });
  (c.actions ?? []).forEach((a, j) => insertAction(db, rulePk, conditionPk, j, a, stamp));
}

/** Replaces a kept condition's actions; returns whether any action was added, changed, removed or reordered. */
function applyActions(
  db: Db,
  rulePk: number,
  condition: ConditionRow,
  oldActions: readonly ActionRow[],
  requested: readonly UpdateActionInput[],
  stamp: Stamp,
  field: string,
  summary: ChangeSummary,
): boolean {
  const oldById = new Map(oldActions.map((a) => [a.id, a]));
  const kept = new Set<string>();
  requested.forEach((a, j) => {
    if (!a.ruleActionId) return;
    if (!oldById.has(a.ruleActionId))
      throw ApiError.invalid(`${field}.actions[${j}].rule_action_id`, `'${a.ruleActionId}' is not an action of this condition`);
    if (kept.has(a.ruleActionId))
      throw ApiError.invalid(`${field}.actions[${j}].rule_action_id`, `'${a.ruleActionId}' appears more than once`);
    kept.add(a.ruleActionId);
  });
  let changed = false;
  for (const old of oldActions) {
    if (kept.has(old.id)) continue;
    deleteRuleAction(db, old.pk);
    summary.actionsRemoved++;
    changed = true;
  }
  const keptOrder: string[] = [];
  requested.forEach((a, j) => {
    const old = a.ruleActionId ? oldById.get(a.ruleActionId) : undefined;
    if (!old) {
      insertAction(db, rulePk, condition.pk, j, a, stamp);
      summary.actionsAdded++;
      changed = true;
      return;
    }
    keptOrder.push(old.id);
    const configuration = JSON.stringify(configurationToWire(a.configuration));
    const type = ActionKind.numbers[a.actionType];
    if (type !== old.action_type || canonical(JSON.parse(configuration)) !== canonical(JSON.parse(old.configuration))) {
      setRuleActionColumns(db, old.pk, {
        position: j,
        action_type: type,
        configuration,
        version_id: randomUUID(),
        modified_date: stamp.now,
        modified_by_user_id: stamp.userId,
      });
      summary.actionsChanged++;
      changed = true;
    } else if (old.position !== j) {
      setRuleActionColumns(db, old.pk, { position: j });
    }
  });
  const oldOrder = oldActions.filter((a) => kept.has(a.id)).map((a) => a.id);
  return changed || oldOrder.join() !== keptOrder.join();
}

/** Replaces the rule's conditions (matched by rule_condition_id) and counts what changed. */
function applyConditions(
  db: Db,
  rulePk: number,
  requested: readonly UpdateConditionInput[],
  stamp: Stamp,
  prefix: string,
  summary: ChangeSummary,
): void {
  const { conditions: oldConditions, actions: oldActions } = loadConditions(db, rulePk);
  const oldById = new Map(oldConditions.map((c) => [c.id, c]));
  const kept = new Set<string>();
  requested.forEach((c, i) => {
    if (!c.ruleConditionId) return;
    const field = `${prefix}conditions[${i}].rule_condition_id`;
    if (!oldById.has(c.ruleConditionId)) throw ApiError.invalid(field, `'${c.ruleConditionId}' is not a condition of this rule`);
    if (kept.has(c.ruleConditionId)) throw ApiError.invalid(field, `'${c.ruleConditionId}' appears more than once`);
    kept.add(c.ruleConditionId);
  });
  for (const old of oldConditions) {
    if (kept.has(old.id)) continue;
    deleteRuleCondition(db, old.pk);
    summary.conditionsRemoved++;
  }
  const keptOrder: string[] = [];
  requested.forEach((c, i) => {
    const field = `${prefix}conditions[${i}]`;
    const old = c.ruleConditionId ? oldById.get(c.ruleConditionId) : undefined;
    if (!old) {
      insertCondition(db, rulePk, i, c, stamp, field);
      summary.conditionsAdded++;
      return;
    }
    keptOrder.push(old.id);
    const expression = JSON.stringify(expressionToWire(c.expression));
    const expressionChanged = canonical(JSON.parse(expression)) !== canonical(JSON.parse(old.expression));
    if (expressionChanged) summary.conditionsChanged++;
    const actionsChanged = applyActions(db, rulePk, old, oldActions.get(old.pk) ?? [], c.actions ?? [], stamp, field, summary);
    if (expressionChanged || actionsChanged) {
      // A condition's version covers its expression and its actions.
      setRuleConditionColumns(db, old.pk, {
        position: i,
        expression,
        version_id: randomUUID(),
        modified_date: stamp.now,
        modified_by_user_id: stamp.userId,
      });
    } else if (old.position !== i) {
      setRuleConditionColumns(db, old.pk, { position: i });
    }
  });
  const oldOrder = oldConditions.filter((c) => kept.has(c.id)).map((c) => c.id);
  if (oldOrder.join() !== keptOrder.join()) summary.conditionsReordered = true;
}

// -------------------------------------------------------------- versions

/** Appends the next version (1, 2, ...) and stores the full wire Rule as of it. */
export function appendVersion(db: Db, rulePk: number, notes: string, message: string, stamp: Stamp): void {
  const next = db.get<{ v: number }>('SELECT COALESCE(MAX(version), 0) + 1 AS v FROM rule_versions WHERE rule_pk = ?', [rulePk])!.v;
  const id = randomUUID();
  insertRuleVersion(db, {
    id,
    rule_pk: rulePk,
    version: next,
    version_notes: notes,
    change_message: message,
    created_date: stamp.now,
    created_by_user_id: stamp.userId,
    snapshot: '{}',
  });
  setRuleColumns(db, rulePk, { current_version_id: id });
  setRuleVersionSnapshot(db, id, JSON.stringify(loadRules(db, [rulePk])[0]));
}

// ---------------------------------------------------------------- upsert

function createRule(ctx: RequestContext, organizationId: string, req: UpdateRuleInput, opts: UpsertOptions): UpsertResult {
  const { db, caller } = ctx;
  const clientKey = clientKeyOf(req);
  if (clientKey) assertClientKeyFree(db, organizationId, clientKey, `${opts.prefix}client_key`);
  const stamp: Stamp = { now: nowMicros(), userId: caller.userId };
  const id = randomUUID();
  const pk = insertRule(db, {
    id,
    organization_id: organizationId,
    client_key: clientKey ?? null,
    name: req.name,
    description: req.description ?? '',
    asset_id: req.assetId ?? '',
    is_enabled: req.isEnabled === false ? 0 : 1,
    is_external: req.isExternal ? 1 : 0,
    is_live_evaluation_enabled: req.isLiveEvaluationEnabled === false ? 0 : 1,
    current_version_id: '',
    created_date: stamp.now,
    modified_date: stamp.now,
    created_by_user_id: caller.userId,
    modified_by_user_id: caller.userId,
    deleted_date: null,
    archived_date: req.isArchived ? stamp.now : null,
  });
  writeAssetConfiguration(db, pk, req);
  writeContextualChannels(db, pk, req);
  replaceRuleMetadata(db, pk, req.metadata ?? [], `${opts.prefix}metadata`);
  const conditions = req.conditions ?? [];
  conditions.forEach((c, i) => {
    if (c.ruleConditionId)
      throw ApiError.invalid(
        `${opts.prefix}conditions[${i}].rule_condition_id`,
        `'${c.ruleConditionId}' is not a condition of this rule (a new rule has none yet)`,
      );
    insertCondition(db, pk, i, c, stamp, `${opts.prefix}conditions[${i}]`);
  });
  const actions = conditions.reduce((n, c) => n + (c.actions?.length ?? 0), 0);
  appendVersion(db, pk, req.versionNotes ?? '', creationMessage(conditions.length, actions), stamp);
  return { ruleId: id, created: true, name: req.name, clientKey: clientKey ?? '' };
}

function updateRule(ctx: RequestContext, row: RuleRow, req: UpdateRuleInput, opts: UpsertOptions): UpsertResult {
  const { db, caller } = ctx;
  const p = opts.prefix;
  const stamp: Stamp = { now: nowMicros(), userId: caller.userId };
  const summary = emptySummary();
  const field = (name: string, changed: boolean) => changed && summary.fields.push(name);

  // client_key: may be set once, never changed.
  const clientKey = clientKeyOf(req);
  let newClientKey = row.client_key;
  if (clientKey !== undefined && clientKey !== row.client_key) {
    if (row.client_key !== null)
      throw ApiError.invalid(`${p}client_key`, `is immutable once set (the rule's client_key is '${row.client_key}')`);
    assertClientKeyFree(db, row.organization_id, clientKey, `${p}client_key`);
    newClientKey = clientKey;
  }

  const next = {
    name: req.name,
    description: req.description ?? '',
    asset_id: req.assetId ?? '',
    is_enabled: req.isEnabled === undefined ? row.is_enabled : req.isEnabled ? 1 : 0,
    is_external: req.isExternal ? 1 : 0,
    is_live_evaluation_enabled:
      req.isLiveEvaluationEnabled === undefined ? row.is_live_evaluation_enabled : req.isLiveEvaluationEnabled ? 1 : 0,
  };
  field('name', next.name !== row.name);
  field('description', next.description !== row.description);
  field('asset_id', next.asset_id !== row.asset_id);
  field('is_enabled', next.is_enabled !== row.is_enabled);
  field('is_external', next.is_external !== row.is_external);
  field('is_live_evaluation_enabled', next.is_live_evaluation_enabled !== row.is_live_evaluation_enabled);
  field('client_key', newClientKey !== row.client_key);

  const unique = (xs: readonly string[] | undefined) => [...new Set(xs ?? [])];
  const assetConfigurationChanged =
    canonical([unique(req.assetConfiguration?.assetIds), unique(req.assetConfiguration?.tagIds)]) !==
    canonical([
      loadLists(db, 'rule_asset_ids', 'rule_pk', 'asset_id', [row.pk]).get(row.pk) ?? [],
      loadLists(db, 'rule_tag_ids', 'rule_pk', 'tag_id', [row.pk]).get(row.pk) ?? [],
    ]);
  field('asset_configuration', assetConfigurationChanged);
  const storedChannels = db.all<{ name: string; component: string; calculated_channel_version_id: string | null }>(
    'SELECT name, component, calculated_channel_version_id FROM rule_contextual_channels WHERE rule_pk = ? ORDER BY position',
    [row.pk],
  );
  const contextualChanged =
    canonical((req.contextualChannels?.channels ?? []).map(channelReferenceToWire)) !==
    canonical(
      storedChannels.map((c) =>
        channelReferenceToWire({
          name: c.name,
          component: c.component,
          calculatedChannelVersionId: c.calculated_channel_version_id ?? undefined,
        }),
      ),
    );
  field('contextual_channels', contextualChanged);
  const metadataChanged =
    canonical((req.metadata ?? []).map((m) => metadataRowToWire(metadataInputToRow(m)))) !==
    canonical(loadMetadata(db, 'rule_metadata', 'rule_pk', [row.pk]).get(row.pk) ?? []);
  field('metadata', metadataChanged);

  applyConditions(db, row.pk, req.conditions ?? [], stamp, p, summary);
  if (assetConfigurationChanged) writeAssetConfiguration(db, row.pk, req);
  if (contextualChanged) writeContextualChannels(db, row.pk, req);
  if (metadataChanged) replaceRuleMetadata(db, row.pk, req.metadata ?? [], `${p}metadata`);

  // Archive is rule state, not part of the versioned definition: it changes
  // modified_date but does not make a version on its own.
  const archivedChanged = req.isArchived !== undefined && req.isArchived !== (row.archived_date !== null);
  const changed = hasChanges(summary);
  if (changed || archivedChanged) {
    setRuleColumns(db, row.pk, {
      ...next,
      client_key: newClientKey,
      archived_date: archivedChanged ? (req.isArchived ? stamp.now : null) : row.archived_date,
      modified_date: stamp.now,
      modified_by_user_id: stamp.userId,
    });
  }
  if (changed) appendVersion(db, row.pk, req.versionNotes ?? '', changeMessage(summary), stamp);
  return { ruleId: row.id, created: false, name: next.name, clientKey: newClientKey ?? '' };
}

/** Creates or updates one rule inside the caller's transaction (a savepoint when nested). */
export function upsertRule(ctx: RequestContext, req: UpdateRuleInput, opts: UpsertOptions): UpsertResult {
  const { db, caller } = ctx;
  return db.tx(() => {
    const p = opts.prefix;
    if (opts.mode === 'create') {
      if (req.ruleId) throw ApiError.invalid(`${p}rule_id`, 'must be empty when creating a rule (use UpdateRule to change one)');
      return createRule(ctx, resolveOrganization(caller, req.organizationId), req, opts);
    }
    if (req.ruleId) {
      // An unknown rule_id is NOT_FOUND (a rule's id is never chosen by the client; client_key is).
      const row = findVisibleRule(ctx, req.ruleId);
      if (req.organizationId && req.organizationId !== row.organization_id) throw ApiError.notFound('rule', req.ruleId);
      return updateRule(ctx, row, req, opts);
    }
    const organizationId = resolveOrganization(caller, req.organizationId);
    const clientKey = clientKeyOf(req);
    const existing = clientKey ? findRuleByClientKeyIn(db, organizationId, clientKey) : undefined;
    return existing ? updateRule(ctx, existing, req, opts) : createRule(ctx, organizationId, req, opts);
  });
}
