// Every replicated operation, by name. On a replica, a platform write without
// a spec is refused (invoke.ts, writesPlatformData): it would never reach the
// remote. Local and read-only operations are marked by their `effect`.
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
