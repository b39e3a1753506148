// The strict check of a request against what the platform's API allows
// (src-main/sync/resources/platformRequests.ts): its operation (method and
// path), query parameter names, order_by fields, CEL filter fields and
// update-mask paths. Outpost's own server is lenient like the gateway (unknown
// query parameters ignored, extension fields served); this check is what a
// platform enforcing its documented lists would refuse, with its
// INVALID_ARGUMENT body naming the offending field.
import { parse, type ASTNode } from '@marcbachmann/cel-js';
import { camelToSnake } from '../../src-shared/api/wire';
import { operations } from '../../src-shared/operations';
import type { OperationDef } from '../../src-shared/api/operation';
import { platformRequests, type PlatformRequest } from '../../src-main/sync/resources/platformRequests';

export interface GateRequest {
  readonly method: string;
  /** Path with its query string, as the request line has it. */
  readonly path: string;
  readonly body: string;
}

export interface Refusal {
  readonly operation?: string;
  readonly field: string;
  readonly message: string;
}

interface Route {
  readonly name: string;
  readonly op: OperationDef;
  readonly pattern: RegExp;
  readonly pathFields: ReadonlySet<string>;
}

const routes: Route[] = Object.entries(operations as Record<string, OperationDef>).map(([name, op]) => {
  const fields = new Set<string>();
  const source = op.path
    .split(/(\{[a-z_]+\})/)
    .map((part) => {
      const field = /^\{([a-z_]+)\}$/.exec(part)?.[1];
      if (!field) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      fields.add(field);
      return '[^/:]+';
    })
    .join('');
  return { name, op, pattern: new RegExp(`^${source}$`), pathFields: fields };
});

/** The operation a request is a call of (by method and path), if any. */
export function operationOf(method: string, pathname: string): Route | undefined {
  return routes.find((r) => r.op.method === method && r.pattern.test(pathname));
}

/** The identifiers a CEL filter names at its top level (comprehension variables and function names aside). */
export function filterFieldsOf(filter: string): string[] {
  const found = new Set<string>();
  const visit = (node: ASTNode, bound: ReadonlySet<string>) => {
    if (node.op === 'id') {
      const name = node.args as unknown as string;
      if (!bound.has(name)) found.add(name);
      return;
    }
    if (node.op === 'rcall') {
      const [, receiver, args] = node.args as unknown as [string, ASTNode, ASTNode[]];
      visit(receiver, bound);
      const variable = args[0]?.op === 'id' && args.length >= 2 ? (args[0].args as unknown as string) : undefined;
      const inner = variable ? new Set([...bound, variable]) : bound;
      for (const a of variable ? args.slice(1) : args) visit(a, inner);
      return;
    }
    if (node.op === 'call') {
      const [, args] = node.args as unknown as [string, ASTNode[]];
      for (const a of args) visit(a, bound);
      return;
    }
    if (node.op === '.') {
      visit((node.args as unknown as [ASTNode, string])[0], bound);
      return;
    }
    const walk = (x: unknown) => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object' && 'op' in x) visit(x as ASTNode, bound);
    };
    walk(node.args);
  };
  visit(parse(filter).ast as ASTNode, new Set());
  return [...found];
}

const refuse = (operation: string | undefined, field: string, message: string): Refusal => ({ operation, field, message });

function checkQuery(name: string, rule: PlatformRequest, route: Route, params: URLSearchParams): Refusal | undefined {
  for (const key of new Set(params.keys())) {
    const field = camelToSnake(key);
    if (!(rule.query ?? []).includes(field) || route.pathFields.has(field)) {
      return refuse(
        name,
        field,
        `${name}: unknown query parameter "${key}" (the platform documents ${(rule.query ?? []).join(', ') || 'none'})`,
      );
    }
  }
  const orderBy = params.get('order_by') ?? params.get('orderBy');
  if (orderBy !== null) {
    for (const term of orderBy.split(',')) {
      const field = term.trim().replace(/\s+(asc|desc)$/i, '');
      if (!(rule.orderBy ?? []).includes(field)) {
        return refuse(name, 'order_by', `${name}: cannot order by "${field}" (allowed: ${(rule.orderBy ?? []).join(', ') || 'none'})`);
      }
    }
  }
  const filter = params.get('filter');
  if (filter) {
    let fields: string[];
    try {
      fields = filterFieldsOf(filter);
    } catch (e) {
      return refuse(name, 'filter', `${name}: invalid filter: ${(e as Error).message}`);
    }
    const unknown = fields.find((f) => !(rule.filter ?? []).includes(f));
    if (unknown)
      return refuse(name, 'filter', `${name}: unknown filter field "${unknown}" (allowed: ${(rule.filter ?? []).join(', ') || 'none'})`);
  }
  return undefined;
}

function checkMask(name: string, rule: PlatformRequest, body: string): Refusal | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body || '{}');
  } catch {
    return undefined; // not JSON (multipart): no mask to read
  }
  const mask = (parsed as Record<string, unknown>)?.updateMask ?? (parsed as Record<string, unknown>)?.update_mask;
  if (mask === undefined) return rule.mask ? refuse(name, 'update_mask', `${name}: update_mask is required`) : undefined;
  if (!rule.mask) return refuse(name, 'update_mask', `${name}: takes no update_mask`);
  if (typeof mask !== 'string') return refuse(name, 'update_mask', `${name}: update_mask must be one comma-separated string`);
  for (const path of mask.split(',').map((p) => p.trim())) {
    // Go protojson rejects a JSON mask path containing "_" (reference §1.3).
    if (path.includes('_')) return refuse(name, 'update_mask', `${name}: mask path "${path}" is not lowerCamelCase`);
    if (!rule.mask.includes(camelToSnake(path))) {
      return refuse(name, 'update_mask', `${name}: mask path "${path}" is not updatable (allowed: ${rule.mask.join(', ')})`);
    }
  }
  return undefined;
}

/** Why a platform enforcing its documented lists would refuse this request, or undefined when it would take it. */
export function refusalOf(r: GateRequest): Refusal | undefined {
  const url = new URL(r.path, 'http://gate.invalid');
  const route = operationOf(r.method, url.pathname);
  const rule = route && (platformRequests as Record<string, PlatformRequest>)[route.name];
  if (!route || !rule) {
    return refuse(
      route?.name,
      'path',
      `${r.method} ${url.pathname}: ${route ? `${route.name} is not an operation the sync may call on the platform` : 'no such route'}`,
    );
  }
  const name = route.name;
  if (route.op.input === 'query' || route.op.input === 'path') {
    const refused = checkQuery(name, rule, route, url.searchParams);
    if (refused) return refused;
  } else {
    if ([...url.searchParams.keys()].length) return refuse(name, 'query', `${name}: a body operation reads no query parameters`);
    if (route.op.input === 'body') return checkMask(name, rule, r.body);
  }
  return undefined;
}

/** The platform's INVALID_ARGUMENT error body for a refusal (google.rpc.Status with a BadRequest detail). */
export function refusalBody(refusal: Refusal): { code: number; message: string; details: unknown[] } {
  return {
    code: 3,
    message: refusal.message,
    details: [
      { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: refusal.field, description: refusal.message }] },
    ],
  };
}
