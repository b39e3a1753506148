// Which operation of the table each RPC runs: the one with the same HTTP method and path template as one of the
// RPC's `google.api.http` bindings. Worked out once, from the protos and the table; nothing here names a method.
import type { DescMethod, DescService } from '@bufbuild/protobuf';
import { snakeToCamel } from '../../src-shared/api/wire';
import { operations, type OperationName } from '../../src-shared/operations';
import { httpBindings } from './httpRules';

export interface OperationBinding {
  readonly operation: OperationName;
  /** The request fields (lowerCamelCase) the binding's path binds: all must be set for this binding to apply. */
  readonly pathFields: readonly string[];
}

const key = (method: string, path: string) => `${method} ${path}`;

const operationByRoute: ReadonlyMap<string, OperationName> = new Map(
  (Object.keys(operations) as OperationName[]).map((name) => [key(operations[name].method, operations[name].path), name]),
);

/**
 * The operations an RPC's bindings map to, most specific first (ListAnnotationLogs: the annotation's logs, then
 * every annotation's through its additional binding `GET /api/v1/annotation-logs`). Empty: not served here.
 */
export function operationBindings(method: DescMethod): OperationBinding[] {
  const out: OperationBinding[] = [];
  for (const binding of httpBindings(method)) {
    const operation = operationByRoute.get(key(binding.method, binding.path));
    if (!operation) continue;
    const pathFields = [...binding.path.matchAll(/\{([a-z_.]+)\}/g)].map((m) => snakeToCamel(m[1]));
    out.push({ operation, pathFields });
  }
  return out.sort((a, b) => b.pathFields.length - a.pathFields.length);
}

/** Every RPC of the services with its operation bindings. */
export function operationMap(services: readonly DescService[]): ReadonlyMap<DescMethod, readonly OperationBinding[]> {
  return new Map(services.flatMap((s) => s.methods.map((m) => [m, operationBindings(m)] as const)));
}

/**
 * The binding a request takes: the first whose path fields it all sets, else the least specific one (whose validation
 * then names the missing field, as the HTTP route's would).
 */
export function bindingFor(
  bindings: readonly OperationBinding[],
  request: Readonly<Record<string, unknown>>,
): OperationBinding | undefined {
  return bindings.find((b) => b.pathFields.every((f) => request[f] !== undefined && request[f] !== '')) ?? bindings.at(-1);
}
