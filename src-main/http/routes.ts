// The route table, compiled from the operation table (the only list of routes).
import type { OperationDef } from '../../src-shared/api/operation';
import { snakeToCamel } from '../../src-shared/api/wire';
import { operations, type OperationName } from '../../src-shared/operations';

export interface Route {
  readonly name: OperationName;
  readonly op: OperationDef;
  readonly pattern: RegExp;
  /** lowerCamelCase request fields bound from the path, in order. */
  readonly params: readonly string[];
  /** More literal characters = more specific (`/rules/archive` beats `/rules/{rule_id}`). */
  readonly specificity: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function compileRoute(name: OperationName, op: OperationDef): Route {
  const params: string[] = [];
  let literal = 0;
  let source = '';
  for (const part of op.path.split(/(\{[a-z_]+\})/)) {
    const m = /^\{([a-z_]+)\}$/.exec(part);
    if (m) {
      params.push(snakeToCamel(m[1]));
      source += '([^/]+?)';
    } else {
      literal += part.length;
      source += escape(part);
    }
  }
  return { name, op, pattern: new RegExp(`^${source}$`), params, specificity: literal };
}

export const routes: readonly Route[] = (Object.keys(operations) as OperationName[])
  .map((name) => compileRoute(name, operations[name]))
  .sort((a, b) => b.specificity - a.specificity);

export type RouteMatch =
  { kind: 'found'; route: Route; pathParams: Record<string, string> } | { kind: 'method-not-allowed' } | { kind: 'not-found' };

export function matchRoute(method: string, pathname: string): RouteMatch {
  let pathKnown = false;
  for (const route of routes) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    pathKnown = true;
    if (route.op.method !== method) continue;
    const pathParams: Record<string, string> = {};
    try {
      route.params.forEach((p, i) => (pathParams[p] = decodeURIComponent(m[i + 1])));
    } catch {
      continue;
    }
    return { kind: 'found', route, pathParams };
  }
  return pathKnown ? { kind: 'method-not-allowed' } : { kind: 'not-found' };
}
