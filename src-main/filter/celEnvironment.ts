// The CEL environment a resource's filters are parsed and type-checked in,
// built from its FilterFields declaration (and cached per declaration).
import { Environment } from '@marcbachmann/cel-js';
import type { CelScalarType, FilterFields } from './fields';
import { relationListName } from './relationLists';
import { MAX_AST_NODES, MAX_CALL_ARGUMENTS, MAX_LIST_ELEMENTS, MAX_MAP_ENTRIES, MAX_NESTING_DEPTH } from './limits';

export const CEL_TIMESTAMP = 'google.protobuf.Timestamp';
export const CEL_DURATION = 'google.protobuf.Duration';

export function celTypeName(type: CelScalarType): string {
  if (type === 'timestamp') return CEL_TIMESTAMP;
  if (type === 'duration') return CEL_DURATION;
  return type;
}

export const PARSER_LIMITS = {
  maxAstNodes: MAX_AST_NODES,
  maxDepth: MAX_NESTING_DEPTH,
  maxListElements: MAX_LIST_ELEMENTS,
  maxMapEntries: MAX_MAP_ENTRIES,
  maxCallArguments: MAX_CALL_ARGUMENTS,
};

/** Every enum value name a declaration accepts -> its number; names that mean different numbers are left out. */
export function enumConstants(fields: FilterFields): Map<string, number> {
  const seen = new Map<string, number | null>();
  const add = (values: Readonly<Record<string, number>> | undefined) => {
    for (const [name, n] of Object.entries(values ?? {})) {
      const prior = seen.get(name);
      seen.set(name, prior === undefined || prior === n ? n : null);
    }
  };
  for (const f of Object.values(fields)) {
    if (f.kind === 'enum') add(f.values);
    else if (f.kind === 'scalar' || f.kind === 'relation') add(f.enumValues);
    else if (f.kind === 'messages') for (const m of Object.values(f.members)) add(m.enumValues);
  }
  const out = new Map<string, number>();
  for (const [name, n] of seen) if (n !== null && !Object.hasOwn(fields, name)) out.set(name, n);
  return out;
}

export interface EnvironmentOptions {
  /**
   * For evaluating rows in memory (tests): relations are declared as lists so
   * a test can spell out the "some element matches" meaning with exists().
   */
  readonly inMemoryReference?: boolean;
}

/**
 * Optional fields are declared dyn: their value is CEL null when absent, and
 * `run_id == null` must type-check (the Python client emits it). Declaring
 * `string == null` overloads instead makes every `dyn == string` comparison
 * ambiguous in the CEL library, so the compiler checks literal types against
 * these fields' declared types itself (celToSql.ts).
 */
function variableType(type: string, nullable: boolean | undefined): string {
  return nullable ? 'dyn' : type;
}

export function buildCelEnvironment(fields: FilterFields, options: EnvironmentOptions = {}): Environment {
  const env = new Environment({ limits: PARSER_LIMITS, homogeneousAggregateLiterals: true });
  const reference = options.inMemoryReference === true;
  for (const [name, f] of Object.entries(fields)) {
    switch (f.kind) {
      case 'scalar':
        env.registerVariable(name, variableType(celTypeName(f.type), f.nullable));
        break;
      case 'enum':
        env.registerVariable(name, variableType('int', f.nullable));
        break;
      case 'relation':
        env.registerVariable(name, reference ? `list<${celTypeName(f.type)}>` : celTypeName(f.type));
        // Its list uses ('x' in tag_name, size(tag_name), tag_name.exists(...)), see relationLists.ts.
        if (!reference) env.registerVariable(relationListName(name), `list<${celTypeName(f.type)}>`);
        break;
      case 'messages': {
        const memberTypes: Record<string, string> = {};
        for (const [m, spec] of Object.entries(f.members)) memberTypes[m] = variableType(celTypeName(spec.type), spec.nullable);
        env.registerType(f.typeName, { fields: memberTypes });
        env.registerVariable(name, `list<${f.typeName}>`);
        break;
      }
      case 'map':
        env.registerVariable(name, `map<string, ${f.value.kind === 'dyn' ? 'dyn' : celTypeName(f.value.type)}>`);
        break;
      case 'directive':
        env.registerVariable(name, 'bool');
        break;
    }
  }
  for (const [name, n] of enumConstants(fields)) env.registerConstant(name, 'int', BigInt(n));
  return env;
}

const checkEnvironments = new WeakMap<FilterFields, Environment>();
const foldEnvironments = new WeakMap<FilterFields, Environment>();

/** The type-checking environment of a declaration (built once). */
export function filterEnvironment(fields: FilterFields): Environment {
  let env = checkEnvironments.get(fields);
  if (!env) {
    env = buildCelEnvironment(fields);
    checkEnvironments.set(fields, env);
  }
  return env;
}

/**
 * The environment constant sub-expressions are evaluated in: no fields, the
 * enum constants, and comprehension variables (bound to constants while a
 * comprehension over a list literal is unrolled) passed as untyped context.
 */
export function foldEnvironment(fields: FilterFields): Environment {
  let env = foldEnvironments.get(fields);
  if (!env) {
    env = new Environment({ limits: PARSER_LIMITS, unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });
    for (const [name, n] of enumConstants(fields)) env.registerConstant(name, 'int', BigInt(n));
    foldEnvironments.set(fields, env);
  }
  return env;
}
