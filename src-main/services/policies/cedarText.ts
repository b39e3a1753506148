// Cedar policy text, checked by the real Cedar parser (@cedar-policy/cedar-wasm)
// and validated against Outpost's Cedar schema (auth/cedar/schema.ts).
// Errors carry Cedar's own message plus a line/column location computed from
// Cedar's byte offsets, so the editor can point at the problem.
import type { DetailedError, PolicyJson } from '@cedar-policy/cedar-wasm/nodejs';
import { checkParsePolicySet, policySetTextToParts, policyToJson, validate } from '../../auth/cedar/cedarWasm';
import { CEDAR_SCHEMA } from '../../auth/cedar/schema';

export interface CedarLocation {
  /** 1-based line and column (column counted in characters). */
  readonly line: number;
  readonly column: number;
  /** 0-based byte offset, as Cedar reports it. */
  readonly offset: number;
}

export type CedarCheck =
  | { readonly ok: true; readonly policies: readonly string[] }
  | { readonly ok: false; readonly message: string; readonly location?: CedarLocation };

/** Byte offset (UTF-8, as Cedar's spans are) -> 1-based line and character column. */
export function locate(text: string, byteOffset: number): CedarLocation {
  const prefix = Buffer.from(text, 'utf8').subarray(0, byteOffset).toString('utf8');
  const lastNewline = prefix.lastIndexOf('\n');
  const line = prefix.split('\n').length;
  const column = [...prefix.slice(lastNewline + 1)].length + 1;
  return { line, column, offset: byteOffset };
}

function describeError(text: string, e: DetailedError): { message: string; location?: CedarLocation } {
  const span = e.sourceLocations?.[0];
  const location = span ? locate(text, span.start) : undefined;
  let message = e.message;
  if (location) message += ` at line ${location.line}, column ${location.column} (offset ${location.offset})`;
  const label = span?.label;
  if (label) message += `: ${label}`;
  if (e.help) message += ` (help: ${e.help})`;
  return { message, location };
}

/** Parses a policy set the way it will be enforced (static policies only: a template is an error). */
export function checkCedarPolicy(text: string): CedarCheck {
  const parsed = checkParsePolicySet({ staticPolicies: text });
  if (parsed.type === 'failure') {
    const described = parsed.errors.map((e) => describeError(text, e));
    const first = described[0] ?? { message: 'Cedar could not parse the policy text' };
    return { ok: false, message: described.map((d) => d.message).join('; ') || first.message, location: first.location };
  }
  const parts = policySetTextToParts(text);
  if (parts.type === 'failure') {
    const first = describeError(
      text,
      parts.errors[0] ?? { message: 'Cedar could not split the policy text', help: null, code: null, url: null, severity: null },
    );
    return { ok: false, message: first.message, location: first.location };
  }
  if (parts.policies.length === 0)
    return { ok: false, message: 'the policy text contains no Cedar policy (expected at least one permit or forbid statement)' };
  return checkAgainstSchema(text) ?? { ok: true, policies: parts.policies };
}

/** Cedar's strict validation against the schema: unknown actions, entity types or attributes, type errors. */
function checkAgainstSchema(text: string): CedarCheck | undefined {
  const answer = validate({ schema: CEDAR_SCHEMA, policies: { staticPolicies: text }, validationSettings: { mode: 'strict' } });
  if (answer.type === 'failure') {
    const first = describeError(
      text,
      answer.errors[0] ?? { message: 'Cedar could not validate the policy text', help: null, code: null, url: null, severity: null },
    );
    return { ok: false, message: first.message, location: first.location };
  }
  if (answer.validationErrors.length === 0) return undefined;
  // One problem is reported once per entity type it applies to: keep the first at each place.
  const seen = new Set<string>();
  const described = answer.validationErrors
    .filter((e) => {
      const at = `${e.policyId}@${e.error.sourceLocations?.[0]?.start ?? ''}`;
      return seen.has(at) ? false : (seen.add(at), true);
    })
    .map((e) => describeError(text, e.error));
  return {
    ok: false,
    message: `does not match Outpost's Cedar schema: ${described.map((d) => d.message).join('; ')}`,
    location: described[0].location,
  };
}

function entityText(e: unknown): string {
  const uid = (e && typeof e === 'object' && '__entity' in e ? (e as { __entity: unknown }).__entity : e) as { type?: string; id?: string };
  return `${uid.type ?? '?'}::${JSON.stringify(uid.id ?? '')}`;
}

function actionText(action: PolicyJson['action']): string {
  if (action.op === 'All') return 'all actions';
  if (action.op === '==') return 'entity' in action ? entityText(action.entity) : 'an action slot';
  if ('entities' in action) return `[${action.entities.map(entityText).join(', ')}]`;
  return `actions in ${entityText(action.entity)}`;
}

export interface PolicySummary {
  /** Canonical form (Cedar's JSON): formatting and comments do not change it. */
  readonly key: string;
  /** e.g. `permit on Action::"view"`. */
  readonly label: string;
}

/** One policy statement of a parsed set -> its canonical key and a short label. */
export function summarizePolicy(policyText: string): PolicySummary {
  const json = policyToJson(policyText);
  if (json.type === 'failure') return { key: policyText.trim(), label: 'a policy' };
  return { key: JSON.stringify(json.json), label: `${json.json.effect} on ${actionText(json.json.action)}` };
}
