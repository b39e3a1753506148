// Differential property test: for random datasets (ties, absent values,
// Unicode with astral characters and combining marks, tags, assets, metadata)
// and random well-typed filters, the rows the compiled SQL returns (through
// listPage, in a real SQLite file) are exactly the rows for which the CEL
// library itself evaluates the filter to true, row by row.
//
// Run with FILTER_SEED=<n> to replay a failure (the seed is printed).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCelEnvironment } from '../../src-main/filter/celEnvironment';
import { compileFilter } from '../../src-main/filter/compileFilter';
import { listPage } from '../../src-main/filter/listQuery';
import { annotationListSpec } from '../../src-main/services/annotations/annotationListSpec';
import {
  datasetArb,
  loadDataset,
  openFilterTestDb,
  ORGANIZATION_ID,
  referenceContext,
  type AnnotationRowData,
  type FilterTestDb,
} from './support/annotationDataset';
import { filterArb, type GeneratedFilter } from './support/filterGenerator';

const DATASETS = Number(process.env.FILTER_DATASETS ?? 2000);
const FILTERS_PER_DATASET = 12;
const seed = process.env.FILTER_SEED !== undefined ? Number(process.env.FILTER_SEED) : Date.now() ^ (Math.random() * 0x7fffffff);

const referenceEnv = buildCelEnvironment(annotationListSpec.filterFields, { inMemoryReference: true });
const scope = { sql: 't.organization_id = ?', params: [ORGANIZATION_ID], fingerprint: [ORGANIZATION_ID] };

let testDb: FilterTestDb;
beforeAll(() => {
  testDb = openFilterTestDb();
});
afterAll(() => testDb.close());

/** The ids of the rows the CEL library says the filter is true for. */
function expectedIds(filter: GeneratedFilter, rows: readonly AnnotationRowData[]): string[] {
  const program = referenceEnv.parse(filter.reference);
  const checked = program.check();
  if (!checked.valid) throw new Error(`generator produced an ill-typed reference filter: ${filter.reference}\n${checked.error?.message}`);
  return rows
    .filter((r) => {
      try {
        return program(referenceContext(r)) === true;
      } catch {
        return false; // a CEL error: the row does not match
      }
    })
    .map((r) => r.id)
    .sort();
}

/** The rows matched with every top-level semi-join in its correlated EXISTS form (chosen on large data). */
function actualIdsWithExists(filter: GeneratedFilter): string[] {
  const compiled = compileFilter(annotationListSpec.filterFields, filter.surface);
  let sql = compiled.sql;
  for (const choice of compiled.semiJoins ?? []) sql = sql.replace(choice.semiJoin, () => choice.exists);
  return testDb.db
    .all<{ id: string }>(`SELECT t.id FROM annotations t WHERE t.organization_id = ? AND (${sql})`, [
      ORGANIZATION_ID,
      ...(compiled.params as string[]),
    ])
    .map((r) => r.id)
    .sort();
}

function actualIds(filter: GeneratedFilter): string[] {
  const page = listPage(testDb.db, annotationListSpec, { filter: filter.surface, pageSize: 1000 }, scope, 'secret');
  if (page.nextPageToken) throw new Error('dataset larger than a page');
  if (page.keys.length === 0) return [];
  const rows = testDb.db.all<{ id: string }>(`SELECT id FROM annotations WHERE pk IN (${page.keys.map(() => '?').join(', ')})`, page.keys);
  return rows.map((r) => r.id).sort();
}

describe('compiled filters agree with in-memory CEL evaluation', () => {
  it(`on ${DATASETS} random datasets x ${FILTERS_PER_DATASET} random filters (seed ${seed})`, { timeout: 60_000 + DATASETS * 100 }, () => {
    let cases = 0;
    // Cases where the filter separates the rows (some match, some do not): the ones that can catch a bug.
    let discriminating = 0;
    const property = fc.property(
      datasetArb,
      fc.array(filterArb, { minLength: FILTERS_PER_DATASET, maxLength: FILTERS_PER_DATASET }),
      (rows, filters) => {
        loadDataset(testDb.db, rows);
        for (const f of filters) {
          cases++;
          const expected = expectedIds(f, rows);
          if (expected.length > 0 && expected.length < rows.length) discriminating++;
          let actual: string[];
          try {
            actual = actualIds(f);
          } catch (err) {
            throw new Error(`filter failed to compile or run: ${f.surface}\n${(err as Error).message}`);
          }
          const withExists = actualIdsWithExists(f);
          if (JSON.stringify(actual) !== JSON.stringify(expected) || JSON.stringify(withExists) !== JSON.stringify(expected)) {
            const compiled = compileFilter(annotationListSpec.filterFields, f.surface);
            throw new Error(
              `mismatch for ${f.surface}\nreference: ${f.reference}\nSQL: ${compiled.sql}\nexpected ${expected.join(',')}\nactual   ${actual.join(',')}\nEXISTS   ${withExists.join(',')}\nrows ${JSON.stringify(rows)}`,
            );
          }
        }
      },
    );
    const result = fc.check(property, { seed, numRuns: DATASETS });
    if (result.failed) {
      throw new Error(
        `${(result.errorInstance as Error | undefined)?.message ?? 'property failed'}\n(replay with FILTER_SEED=${seed}; path ${result.counterexamplePath})`,
      );
    }
    expect(cases).toBeGreaterThanOrEqual(DATASETS * FILTERS_PER_DATASET);
    expect(discriminating / cases).toBeGreaterThan(0.3);
  });
});
