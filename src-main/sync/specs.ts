// Every replicated operation, by name. An operation without a spec is not
// recorded in the outbox (its effect stays local); specs are added as the
// operations of each resource land in the operation table.
import { annotationSpecs } from './specs/annotations';
import { artifactSpecs } from './specs/artifacts';
import { policySpecs } from './specs/policies';
import { remoteFileSpecs } from './specs/remoteFiles';
import { savedSearchSpecs } from './specs/savedSearches';
import { testMeasurementSpecs } from './specs/testReportMeasurements';
import { testStepSpecs } from './specs/testReportSteps';
import { testReportSpecs } from './specs/testReports';
import type { OpSpec } from './types';

const specs = new Map<string, OpSpec>([...annotationSpecs, ...savedSearchSpecs, ...policySpecs, ...remoteFileSpecs, ...testReportSpecs, ...testStepSpecs, ...testMeasurementSpecs, ...artifactSpecs].map((s) => [s.operation, s]));

export function specFor(operation: string): OpSpec | undefined {
  return specs.get(operation);
}

export function replicatedOperations(): string[] {
  return [...specs.keys()];
}
