// A list's policies as SQL: Cedar's partial evaluation with the resource
// unknown leaves, per policy, a residual condition on the resource; the ones
// made of what the record tables hold (tags, assets, the tags of those
// assets, creator, assignee, organization, `is`, `has`, &&, ||, !) become a
// WHERE condition, so a page is read once, with its rows filtered in SQL.
// Anything else (resource attributes via getTag, arithmetic, ...) is not
// compiled (undefined): the list then decides row by row.
import type { PolicyJson } from '@cedar-policy/cedar-wasm/nodejs';
import type { Db, SqlValue } from '../../db/database';
import { leadsAnIndex } from '../../db/schemaFacts';
import { countExceeds } from '../../filter/semiJoinPlanner';
import type { ChildColumn, RecordType } from './recordTypes';

export interface SqlCondition {
  readonly sql: string;
  readonly params: readonly SqlValue[];
  /** The memberships in `sql`, each written per row, with the set form it may take instead (see `cheaperForms`). */
  readonly forms?: readonly MembershipForms[];
}

/**
 * A membership test (`resource.tags.contains(v)`) two ways, with the same parameters in the same order: per row, a
 * correlated EXISTS over the row's few children (as written in the condition's SQL, unique there by its alias); or
 * as a set, the parent keys of every child holding a value, which SQLite reads once per statement. The set is far
 * cheaper while few children hold the values (a forbidden tag on no record: about 2 us a row saved); per row wins
 * when many do, and its cost does not grow with the data.
 */
export interface MembershipForms {
  readonly perRow: string;
  readonly asSet: string;
  /** Counts the children holding the values (`SELECT count(*) ... LIMIT ?`; the bound is appended), through `index`. */
  readonly probe: SqlCondition;
  /** The child table and its value column, which the probe and the set need an index on. */
  readonly index: readonly [table: string, column: string];
}

/** A membership test (`resource.tags.contains(v)`): several on the same set under an OR become one `IN` probe. */
interface Membership extends SqlCondition {
  readonly set: string;
  readonly value: SqlValue;
  readonly build: (values: readonly SqlValue[]) => SqlCondition;
}

const isMembership = (c: SqlCondition): c is Membership => 'build' in c;

// Cedar's residual JSON: its `Expr` union plus `unknown` nodes for the resource. Read loosely, key by key, and every
// shape not recognised below is NotCompilable, so a loose read never lets an unknown node through.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Expr = Record<string, any>;
class NotCompilable extends Error {}

const TRUE: SqlCondition = { sql: '1', params: [] };
const FALSE: SqlCondition = { sql: '0', params: [] };

const isResource = (e: Expr | undefined) => Array.isArray(e?.unknown) && e.unknown[0]?.Value === 'resource';

function entityValue(e: Expr): { type: string; id: string } | undefined {
  const v = e?.Value?.__entity;
  return v && typeof v.type === 'string' && typeof v.id === 'string' ? v : undefined;
}

function stringValue(e: Expr): string {
  if (typeof e?.Value !== 'string') throw new NotCompilable();
  return e.Value;
}

function stringSet(e: Expr): string[] {
  const items = e?.Set ?? e?.Value;
  if (!Array.isArray(items)) throw new NotCompilable();
  return items.map((i: Expr) => (typeof i === 'string' ? i : stringValue(i)));
}

function and(parts: SqlCondition[]): SqlCondition {
  if (parts.some((p) => p === FALSE)) return FALSE;
  const rest = parts.filter((p) => p !== TRUE);
  if (rest.length === 0) return TRUE;
  if (rest.length === 1) return rest[0];
  return { sql: `(${rest.map((p) => p.sql).join(' AND ')})`, params: rest.flatMap((p) => p.params), forms: formsOf(rest) };
}

const formsOf = (parts: readonly SqlCondition[]) => parts.flatMap((p) => p.forms ?? []);

/** An OR keeps its parts, so an OR of ORs (forbids that each test several tags) is flattened into one list per set. */
interface Disjunction extends SqlCondition {
  readonly disjuncts: readonly SqlCondition[];
}

function or(parts: SqlCondition[]): SqlCondition {
  const flat = parts.flatMap((p) => ('disjuncts' in p ? (p as Disjunction).disjuncts : [p]));
  if (flat.some((p) => p === TRUE)) return TRUE;
  const rest: SqlCondition[] = [];
  const bySet = new Map<string, Membership[]>();
  for (const p of flat) {
    if (p === FALSE) continue;
    if (isMembership(p)) (bySet.get(p.set) ?? bySet.set(p.set, []).get(p.set)!).push(p);
    else rest.push(p);
  }
  for (const group of bySet.values()) rest.push(group.length === 1 ? group[0] : group[0].build(group.map((m) => m.value)));
  if (rest.length === 0) return FALSE;
  if (rest.length === 1) return rest[0];
  const disjunction: Disjunction = {
    sql: `(${rest.map((p) => p.sql).join(' OR ')})`,
    params: rest.flatMap((p) => p.params),
    forms: formsOf(rest),
    disjuncts: flat.filter((p) => p !== FALSE),
  };
  return disjunction;
}

function not(c: SqlCondition): SqlCondition {
  if (c === TRUE) return FALSE;
  if (c === FALSE) return TRUE;
  return { sql: `NOT (${c.sql})`, params: c.params, forms: c.forms };
}

const placeholders = (values: readonly SqlValue[]) => values.map(() => '?').join(', ');

/**
 * `<alias>.<column> IN (values)` inside a per-row EXISTS. With several values the column is written `+col`, which keeps
 * SQLite from seeking the (row, value) index once per value for every row (100 policies: 100 seeks a row, ~15x slower
 * on a page); it reads the row's few children and tests each against the list, which it builds once per statement.
 */
function probe(alias: string, column: string, values: readonly SqlValue[]): string {
  return values.length > 1 ? `+${alias}.${column} IN (${placeholders(values)})` : `${alias}.${column} = ?`;
}

/**
 * A membership over `from` (the child rows, joined to what holds the values) whose parent key is `<parentKey>` and
 * whose values are in `<valueAlias>.<column>` of the `index` table: its per-row SQL, with its set form beside it.
 */
function membership(
  from: string,
  parentKey: string,
  valueAlias: string,
  index: readonly [table: string, column: string],
  values: readonly SqlValue[],
): SqlCondition {
  const valueColumn = `${valueAlias}.${index[1]}`;
  const anyValue = values.length > 1 ? `${valueColumn} IN (${placeholders(values)})` : `${valueColumn} = ?`;
  const perRow = `EXISTS (SELECT 1 FROM ${from} WHERE ${parentKey} = t.pk AND ${probe(valueAlias, index[1], values)})`;
  const asSet = `t.pk IN (SELECT ${parentKey} FROM ${from} WHERE ${anyValue})`;
  const count = { sql: `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${anyValue} LIMIT ?)`, params: values };
  return { sql: perRow, params: values, forms: [{ perRow, asSet, probe: count, index }] };
}

class Compiler {
  /** Inside the right side of `resource has assignee && ...`: reading the assignee cannot fail there. */
  private assigneeGuarded = false;
  /** Numbers each membership's aliases, so its SQL text is unique in the condition (cheaperForms replaces it by text). */
  private memberships = 0;
  constructor(private readonly type: RecordType) {}

  private child(column: ChildColumn | undefined, value: string): SqlCondition | Membership {
    if (!column) return FALSE;
    const [table, pkColumn, valueColumn] = column;
    const build = (values: readonly SqlValue[]): SqlCondition => {
      const n = ++this.memberships;
      return membership(`${table} c${n}`, `c${n}.${pkColumn}`, `c${n}`, [table, valueColumn], values);
    };
    return { ...build([value]), set: column.join('.'), value, build } satisfies Membership;
  }

  private assetTag(value: string): SqlCondition | Membership {
    if (!this.type.assets) return FALSE;
    const [table, pkColumn, valueColumn] = this.type.assets;
    const build = (values: readonly SqlValue[]): SqlCondition => {
      const n = ++this.memberships;
      const from = `${table} c${n} JOIN assets a${n} ON a${n}.id = c${n}.${valueColumn} JOIN asset_tags at${n} ON at${n}.asset_pk = a${n}.pk`;
      return membership(from, `c${n}.${pkColumn}`, `at${n}`, ['asset_tags', 'tag_name'], values);
    };
    return { ...build([value]), set: 'assetTags', value, build } satisfies Membership;
  }

  private setContains(attr: string, value: string): SqlCondition {
    if (attr === 'tags') return this.child(this.type.tags, value);
    if (attr === 'assets') return this.child(this.type.assets, value);
    if (attr === 'assetTags') return this.assetTag(value);
    throw new NotCompilable();
  }

  /** `resource.<attr> == <entity>` for the entity-valued attributes. */
  private entityEquals(attr: string, entity: { type: string; id: string }): SqlCondition {
    if (attr === 'creator') return entity.type === 'User' ? { sql: 't.created_by_user_id = ?', params: [entity.id] } : FALSE;
    if (attr === 'organization') return entity.type === 'Organization' ? { sql: 't.organization_id = ?', params: [entity.id] } : FALSE;
    if (attr === 'assignee' && this.assigneeGuarded && this.type.assigneeColumn) {
      return entity.type === 'User' ? { sql: `t.${this.type.assigneeColumn} = ?`, params: [entity.id] } : FALSE;
    }
    throw new NotCompilable();
  }

  private attrOfResource(e: Expr): string | undefined {
    const dot = e?.['.'];
    return dot && isResource(dot.left) && typeof dot.attr === 'string' ? dot.attr : undefined;
  }

  compile(e: Expr): SqlCondition {
    if (e.Value === true) return TRUE;
    if (e.Value === false) return FALSE;
    if (e['&&']) {
      const left = e['&&'].left;
      const guards = left?.has && isResource(left.has.left) && left.has.attr === 'assignee';
      const l = this.compile(left);
      const before = this.assigneeGuarded;
      if (guards) this.assigneeGuarded = true;
      try {
        return and([l, this.compile(e['&&'].right)]);
      } finally {
        this.assigneeGuarded = before;
      }
    }
    if (e['||']) return or([this.compile(e['||'].left), this.compile(e['||'].right)]);
    if (e['!']) {
      return not(this.compile(e['!'].arg));
    }
    if (e.is && isResource(e.is.left)) {
      if (e.is.in !== undefined) throw new NotCompilable();
      return e.is.entity_type === this.type.entity ? TRUE : FALSE;
    }
    if (e.has && isResource(e.has.left)) {
      const attr = e.has.attr;
      if (attr === 'assignee') return this.type.assigneeColumn ? { sql: `t.${this.type.assigneeColumn} != ''`, params: [] } : FALSE;
      if (['organization', 'creator', 'tags', 'assets', 'assetTags'].includes(attr)) return TRUE;
      return FALSE;
    }
    if (e.in && isResource(e.in.left)) {
      const target = entityValue(e.in.right);
      if (!target) throw new NotCompilable();
      // A record's only ancestor is its organization.
      return target.type === 'Organization' ? { sql: 't.organization_id = ?', params: [target.id] } : FALSE;
    }
    for (const op of ['==', '!=']) {
      if (!e[op]) continue;
      const { left, right } = e[op];
      const attr = this.attrOfResource(left) ?? this.attrOfResource(right);
      const entity = entityValue(this.attrOfResource(left) ? right : left);
      if (!attr || !entity) throw new NotCompilable();
      const eq = this.entityEquals(attr, entity);
      return op === '==' ? eq : not(eq);
    }
    if (e.contains) {
      const attr = this.attrOfResource(e.contains.left);
      if (!attr) throw new NotCompilable();
      return this.setContains(attr, stringValue(e.contains.right));
    }
    if (e.containsAny || e.containsAll) {
      const op = e.containsAny ?? e.containsAll;
      const attr = this.attrOfResource(op.left);
      if (!attr) throw new NotCompilable();
      const parts = stringSet(op.right).map((v) => this.setContains(attr, v));
      return e.containsAny ? or(parts) : parts.length ? and(parts) : TRUE;
    }
    throw new NotCompilable();
  }
}

/** Whether a residual policy applies to a row: every `when` holds and no `unless` does. */
function applies(compiler: Compiler, policy: PolicyJson): SqlCondition {
  const parts = (policy.conditions ?? []).map((c) => {
    const body = compiler.compile(c.body as Expr);
    return c.kind === 'when' ? body : not(body);
  });
  return parts.length ? and(parts) : TRUE;
}

/**
 * The rows the residual policies allow: some permit applies and no forbid does (Cedar's rule). Undefined when a
 * residual uses something the record tables do not hold, or its scope is not reduced to "All" by the evaluation.
 */
export function residualsToSql(residuals: Readonly<Record<string, PolicyJson>>, type: RecordType): SqlCondition | undefined {
  const compiler = new Compiler(type);
  const permits: SqlCondition[] = [];
  const forbids: SqlCondition[] = [];
  try {
    for (const policy of Object.values(residuals)) {
      if (policy.principal.op !== 'All' || policy.action.op !== 'All' || policy.resource.op !== 'All') return undefined;
      (policy.effect === 'permit' ? permits : forbids).push(applies(compiler, policy));
    }
  } catch (e) {
    if (e instanceof NotCompilable) return undefined;
    throw e;
  }
  const allowed = or(permits);
  const forbidden = or(forbids);
  return and([allowed, not(forbidden)]);
}

/**
 * Children holding a membership's values at most this many: read as a set. Per row costs about 2 us for each row a
 * page reads (51 and up); the set, one index seek per value and a read per child, once per statement.
 */
const SET_LIMIT = 200;

/**
 * The condition with each membership in the cheaper form for the data as it is (per request: the probe's count is
 * kept for a few seconds, see countExceeds). Only where the value column leads an index: without one, the probe and
 * the set would read the whole child table.
 */
export function cheaperForms(db: Db, condition: SqlCondition): SqlCondition {
  if (!condition.forms?.length) return condition;
  let byCondition = chosen.get(db);
  if (!byCondition) chosen.set(db, (byCondition = new WeakMap()));
  const now = Date.now();
  const kept = byCondition.get(condition);
  if (kept && now - kept.at < CHOICE_TTL_MS) return kept.condition;
  let sql = condition.sql;
  for (const form of condition.forms) {
    if (leadsAnIndex(db, ...form.index) && !countExceeds(db, form.probe, SET_LIMIT)) sql = sql.replace(form.perRow, () => form.asSet);
  }
  const choice = { sql, params: condition.params };
  byCondition.set(condition, { condition: choice, at: now });
  return choice;
}

/**
 * A compiled condition is kept per caller's policies (authorize.ts), so its choice is kept with it for a while: a
 * stale choice costs speed, never rows (both forms keep the same rows).
 */
const CHOICE_TTL_MS = 10_000;
const chosen = new WeakMap<Db, WeakMap<SqlCondition, { condition: SqlCondition; at: number }>>();
