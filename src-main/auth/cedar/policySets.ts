// An organization's active policies as one Cedar policy set, parsed once per
// set of policy versions: the key is the organization plus every active
// policy's pk and version, read with one indexed query per request, so an
// edit, archive or new policy decides the very next request and an unchanged
// set is never parsed again.
import type { Policy } from '@cedar-policy/cedar-wasm/nodejs';
import { policySetTextToParts, preparsePolicySet } from './cedarWasm';
import type { Db } from '../../db/database';

/** Where a statement of the set comes from. */
export interface StatementSource {
  readonly policyPk: number;
  readonly policyName: string;
  /** 1-based position in the policy's text. */
  readonly statement: number;
}

export interface OrganizationPolicySet {
  /** The preparsed set's id for statefulIsAuthorized. */
  readonly id: string;
  /** Policy id in the set (`<policy name> #<n>`) -> statement, for partial evaluation and diagnostics. */
  readonly statements: Readonly<Record<string, string>>;
  /** Policy id in the set -> the stored policy and statement it is (to name what decided). */
  readonly sources: Readonly<Record<string, StatementSource>>;
  /** Stored statements Cedar could not parse (text pulled from a remote, or stored before a Cedar upgrade): never applied. */
  readonly unparsed: readonly string[];
  readonly empty: boolean;
  /** `pk:version,...` of the active policies it was parsed from. */
  readonly versions: string;
}

interface ActivePolicy {
  pk: number;
  version: number;
}

const MAX_CACHED = 256;
const cache = new Map<string, OrganizationPolicySet>();

interface Statements {
  statements: Record<string, string>;
  sources: Record<string, StatementSource>;
  unparsed: string[];
}

function statementsOf(db: Db, active: readonly ActivePolicy[]): Statements {
  const statements: Record<string, string> = {};
  const sources: Record<string, StatementSource> = {};
  const unparsed: string[] = [];
  const rows = db.all<{ pk: number; name: string; cedar_policy: string }>(
    'SELECT pk, name, cedar_policy FROM policies WHERE pk IN (SELECT value FROM json_each(?))',
    [JSON.stringify(active.map((p) => p.pk))],
  );
  for (const row of rows.sort((a, b) => a.pk - b.pk)) {
    const parts = policySetTextToParts(row.cedar_policy);
    if (parts.type === 'failure') {
      unparsed.push(row.name);
      continue;
    }
    parts.policies.forEach((text, i) => {
      const id = `${row.name} #${i + 1} (policy ${row.pk})`;
      statements[id] = text;
      sources[id] = { policyPk: row.pk, policyName: row.name, statement: i + 1 };
    });
  }
  return { statements, sources, unparsed };
}

/** Tells databases of one process apart (tests and benches open many): the per-database page token secret. */
const databaseKeys = new WeakMap<Db, string>();
function databaseKey(db: Db): string {
  let key = databaseKeys.get(db);
  if (key === undefined) databaseKeys.set(db, (key = db.setting('page_token_secret') ?? ''));
  return key;
}

/** The active (non-archived) policies of the organization, parsed once per version set. */
export function organizationPolicySet(db: Db, organizationId: string): OrganizationPolicySet {
  const active = db.all<ActivePolicy>('SELECT pk, version FROM policies WHERE organization_id = ? AND archived_date IS NULL ORDER BY pk', [
    organizationId,
  ]);
  // One Cedar slot per database and organization: a new version set is parsed into the same slot.
  const id = `${databaseKey(db)}|${organizationId}`;
  const versions = active.map((p) => `${p.pk}:${p.version}`).join(',');
  const cached = cache.get(id);
  if (cached && cached.versions === versions) return cached;
  const { statements, sources, unparsed } = statementsOf(db, active);
  const answer = preparsePolicySet(id, { staticPolicies: statements as Record<string, Policy> });
  if (answer.type === 'failure')
    throw new Error(`Cedar refused the organization's policy set: ${answer.errors.map((e) => e.message).join('; ')}`);
  const set: OrganizationPolicySet = { id, versions, statements, sources, unparsed, empty: Object.keys(statements).length === 0 };
  if (!cached && cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(id, set);
  return set;
}
