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

/** Each path value of a match decoded, or what is wrong with the first one that cannot be. */
type BadPath = Extract<RouteMatch, { kind: 'bad-path' }>;

function pathValues(route: Route, m: RegExpExecArray): { values: Record<string, string> } | { bad: BadPath } {
  const values: Record<string, string> = {};
  for (const [i, p] of route.params.entries()) {
    const raw = m[i + 1];
    const field = camelToSnake(p);
    if (raw === '') return { bad: { kind: 'bad-path', field, description: 'is required (the path has an empty segment)' } };
    const value = decoded(raw);
    if (value === undefined) return { bad: { kind: 'bad-path', field, description: 'is not percent-encoded UTF-8' } };
    values[p] = value;
  }
  return { values };
}

/**
 * The operation a request names. Routes are tried most specific first; the first whose path values are malformed
 * (empty, not UTF-8) makes the request malformed (400) unless a route of its method reads the path cleanly: so
 * `POST /annotations/:archive` is ArchiveAnnotation without an id, not a method GetAnnotation lacks.
 */
export function matchRoute(method: string, pathname: string): RouteMatch {
  let pathKnown = false;
  let bad: RouteMatch | undefined;
  for (const route of routes) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    const read = pathValues(route, m);
    if ('bad' in read) {
      bad ??= read.bad;
      continue;
    }
    if (route.op.method === method) return { kind: 'found', route, pathParams: read.values };
    pathKnown = true;
  }
  return bad ?? (pathKnown ? { kind: 'method-not-allowed' } : { kind: 'not-found' });
}

/** The text of a percent-encoded value, or undefined when its escapes are not UTF-8. */
export function decoded(raw: string): string | undefined {
  // (The result is used: a bundler drops a bare decodeURIComponent call as side-effect free, and its check with it.)
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
