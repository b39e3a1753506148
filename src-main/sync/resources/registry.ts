// Per-resource hooks the generic sync code needs: the merge-base snapshot of a
// record about to be edited. Importing this module also registers every
// resource's id rewriters.
import type { Db } from '../../db/database';
import { ANNOTATION, snapshotAnnotation } from './annotations';
import './annotationLogs';
import { POLICY, snapshotPolicy } from './policies';
import { SAVED_SEARCH, snapshotSavedSearch } from './savedSearches';
import './remoteFiles';
import { snapshotTestMeasurement, snapshotTestStep, TEST_MEASUREMENT, TEST_STEP } from './testReportChildren';
import { snapshotTestReport, TEST_REPORT } from './testReports';
import { ARTIFACT, snapshotArtifact } from './artifacts';
import './artifactVersions';

export interface Snapshot {
  /** The remote modified_date the local record reflects (micros). */
  readonly version: number;
  readonly fields: Record<string, unknown>;
}

const snapshots: Record<string, (db: Db, id: string) => Snapshot | undefined> = {
  [ANNOTATION]: snapshotAnnotation,
  [SAVED_SEARCH]: snapshotSavedSearch,
  [POLICY]: snapshotPolicy,
  [TEST_REPORT]: snapshotTestReport,
  [TEST_STEP]: snapshotTestStep,
  [TEST_MEASUREMENT]: snapshotTestMeasurement,
  [ARTIFACT]: snapshotArtifact,
};

export function snapshotFor(resource: string): ((db: Db, id: string) => Snapshot | undefined) | undefined {
  return snapshots[resource];
}
