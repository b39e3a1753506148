// Every resource's filter declaration, field by field: it builds a CEL
// environment, a representative filter on each field compiles, and the SQL
// runs against the real schema (so a typo in a declaration's SQL, a missing
// alias placeholder or a wrong table fails here, not in production).
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-main/db/database';
import { buildCelEnvironment } from '../../src-main/filter/celEnvironment';
import { compileFilter } from '../../src-main/filter/compileFilter';
import type { CelScalarType, FilterField } from '../../src-main/filter/fields';
import type { ListSpec } from '../../src-main/filter/resource';
import { annotationListSpec } from '../../src-main/services/annotations/annotationListSpec';
import { annotationLogListSpec } from '../../src-main/services/annotations/annotationLogListSpec';
import {
  artifactListSpec,
  artifactListSpecArchiveByFilter,
  artifactVersionListSpec,
} from '../../src-main/services/artifacts/artifactListSpecs';
import { externalSyncTokenListSpec } from '../../src-main/services/externalSync/externalSyncTokenListSpec';
import { policyListSpec, policyVersionListSpec } from '../../src-main/services/policies/policyListSpecs';
import { assetListSpec, channelListSpec, runListSpec, tagListSpec, userListSpec } from '../../src-main/services/reference/listSpecs';
import { remoteFileListSpec } from '../../src-main/services/remoteFiles/remoteFileListSpec';
import { ruleListSpec, ruleVersionListSpec } from '../../src-main/services/rules/ruleListSpecs';
import { savedSearchListSpec } from '../../src-main/services/savedSearches/savedSearchListSpec';
import { testMeasurementListSpec, testReportListSpec, testStepListSpec } from '../../src-main/services/testReports/testReportListSpecs';

const SPECS: ListSpec[] = [
  annotationListSpec,
  annotationLogListSpec,
  artifactListSpec,
  artifactListSpecArchiveByFilter,
  artifactVersionListSpec,
  externalSyncTokenListSpec,
  policyListSpec,
  policyVersionListSpec,
  assetListSpec,
  channelListSpec,
  runListSpec,
  tagListSpec,
  userListSpec,
  remoteFileListSpec,
  ruleListSpec,
  ruleVersionListSpec,
  savedSearchListSpec,
  testReportListSpec,
  testStepListSpec,
  testMeasurementListSpec,
];

const LITERALS: Record<CelScalarType, string> = {
  string: "'x'",
  int: '1',
  uint: '1u',
  double: '1.5',
  bool: 'true',
  timestamp: "timestamp('2024-01-01T00:00:00Z')",
  duration: "duration('1s')",
};

function literalFor(type: CelScalarType, enumValues?: Readonly<Record<string, number>>): string {
  const names = Object.keys(enumValues ?? {});
  return names.length ? `'${names[names.length - 1]}'` : LITERALS[type];
}

/** Representative filters that read the field. */
function filtersFor(name: string, f: FilterField): string[] {
  switch (f.kind) {
    case 'scalar': {
      const lit = literalFor(f.type, f.enumValues);
      const out = [`${name} == ${lit}`, `!(${name} != ${lit})`];
      if (f.type === 'bool') out.push(name, `!${name}`);
      if (f.type === 'string') out.push(`${name}.startsWith('x')`, `${name}.contains('x')`, `${name}.matches('^x')`);
      if (f.nullable) out.push(`${name} == null`);
      return out;
    }
    case 'enum':
      return [
        `${name} == ${literalFor('int', f.values)}`,
        `${name} in [${Object.values(f.values).join(', ')}]`,
        ...(f.nullable ? [`${name} != null`] : []),
      ];
    case 'relation': {
      const lit = literalFor(f.type, f.enumValues);
      // As one element, and as a list (in, size, comprehensions).
      return [
        `${name} == ${lit}`,
        `!(${name} == ${lit})`,
        `${lit} in ${name}`,
        `size(${name}) == 0`,
        `${name}.exists(x, x == ${lit})`,
        `${name}.all(x, x != ${lit})`,
        `${name}.exists_one(x, x == ${lit})`,
      ];
    }
    case 'messages':
      return Object.entries(f.members).flatMap(([m, spec]) => [
        `${name}.exists(x, x.${m} == ${literalFor(spec.type, spec.enumValues)})`,
        `${name}.all(x, x.${m} != ${literalFor(spec.type, spec.enumValues)})`,
        `${name}.exists_one(x, has(x.${m}))`,
      ]);
    case 'map':
      return [`${name}['k'] == ${f.value.kind === 'typed' ? literalFor(f.value.type) : "'v'"}`, `'k' in ${name}`, `!has(${name}.k)`];
    case 'directive':
      return [`${name} == true`, `${name}`];
  }
}

const db = openDatabase(':memory:');
afterAll(() => db.close());

describe.each(SPECS.map((s) => [s.resource, s] as const))('%s', (_, spec) => {
  it('builds a CEL environment', () => {
    expect(() => buildCelEnvironment(spec.filterFields)).not.toThrow();
  });

  const cases = Object.entries(spec.filterFields).flatMap(([name, f]) => filtersFor(name, f).map((filter) => [filter] as const));
  if (cases.length === 0) return;
  it.each(cases)('%s compiles and runs', (filter) => {
    const compiled = compileFilter(spec.filterFields, filter);
    const run = () => db.raw.prepare(`SELECT count(*) AS n FROM ${spec.from} WHERE (${compiled.sql})`).get(...(compiled.params as never[]));
    expect(run).not.toThrow();
    for (const choice of compiled.semiJoins ?? []) {
      const exists = compiled.sql.replace(choice.semiJoin, () => choice.exists);
      expect(() =>
        db.raw.prepare(`SELECT count(*) FROM ${spec.from} WHERE (${exists})`).get(...(compiled.params as never[])),
      ).not.toThrow();
      expect(() => db.raw.prepare(choice.probe.sql).get(...(choice.probe.params as never[]), 10)).not.toThrow();
    }
  });
});
