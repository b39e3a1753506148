// The route table, compiled from the operation table (the only list of routes).
import type { OperationDef } from '../../src-shared/api/operation';
import { camelToSnake, snakeToCamel } from '../../src-shared/api/wire';
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
      // Empty too: `/annotations/:archive` names ArchiveAnnotation with no id (the request's error, not another route).
      source += '([^/]*?)';
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
  | { kind: 'found'; route: Route; pathParams: Record<string, string> }
  | { kind: 'method-not-allowed' }
  | { kind: 'not-found' }
  /** The path names an operation but one of its path values is empty or not percent-encoded UTF-8. */
  | { kind: 'bad-path'; field: string; description: string };

export function matchRoute(method: string, pathname: string): RouteMatch {
  let pathKnown = false;
  let bad: RouteMatch | undefined;
  for (const route of routes) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    if (route.op.method !== method) {
      // Only a route whose path values are well formed makes the path known: `/annotations/%zz` is no annotation's
      // path, so a POST of it is malformed, not a method GetAnnotation lacks.
      if (route.params.every((_, i) => m[i + 1] !== '' && decoded(m[i + 1]) !== undefined)) pathKnown = true;
      continue;
    }
    const pathParams: Record<string, string> = {};
    for (const [i, p] of route.params.entries()) {
      const raw = m[i + 1];
      if (raw === '') bad ??= { kind: 'bad-path', field: camelToSnake(p), description: 'is required (the path has an empty segment)' };
      else {
        const value = decoded(raw);
        if (value === undefined) bad ??= { kind: 'bad-path', field: camelToSnake(p), description: 'is not percent-encoded UTF-8' };
        else pathParams[p] = value;
      }
    }
    if (Object.keys(pathParams).length === route.params.length) return { kind: 'found', route, pathParams };
  }
  // An operation of this method whose path values are malformed is the request's error, before another method's.
  return bad ?? (pathKnown ? { kind: 'method-not-allowed' } : { kind: 'not-found' });
}

/** The decoded path value, or undefined when it is not percent-encoded UTF-8 (the value is used, so no bundler drops the call). */
function decoded(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
