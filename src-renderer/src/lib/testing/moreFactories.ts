// Factories for the policy, test-report, artifact and saved-search views.
import type { Artifact } from '../../../../src-shared/api/artifacts';
import type { Policy, PolicyVersion } from '../../../../src-shared/api/policies';
import type { SavedSearch } from '../../../../src-shared/api/savedSearches';
import type { TestMeasurement, TestReport, TestStep } from '../../../../src-shared/api/testReports';

let n = 0;
const id = (prefix: string) => `${prefix}-${++n}`;
const T = '2026-09-01T12:00:00Z';

export function policy(overrides: Partial<Policy> = {}): Policy {
  const policyId = overrides.policyId ?? id('policy');
  return {
    policyId,
    name: `Policy ${n}`,
    organizationId: 'org',
    createdByUserId: 'u1',
    modifiedByUserId: 'u1',
    createdDate: T,
    modifiedDate: T,
    configuration: { cedarPolicy: 'permit (principal, action, resource);' },
    policyVersionId: `${policyId}-v1`,
    archivedDate: null,
    isArchived: false,
    version: 1,
    ...overrides,
  };
}

export function policyVersion(p: Policy, version: number, cedarPolicy: string): PolicyVersion {
  return {
    policyVersionId: `${p.policyId}-v${version}`,
    policyId: p.policyId,
    version,
    generatedChangeMessage: '',
    configuration: { cedarPolicy },
    createdDate: T,
    createdByUserId: 'u1',
  };
}

export function testReport(overrides: Partial<TestReport> = {}): TestReport {
  return {
    testReportId: id('report'),
    status: 'TEST_STATUS_PASSED',
    name: `Report ${n}`,
    testSystemName: 'Stand A',
    testCase: 'Acceptance',
    startTime: T,
    endTime: '2026-09-01T12:10:00Z',
    metadata: [],
    serialNumber: 'SN-1',
    partNumber: 'PN-1',
    systemOperator: 'op',
    archivedDate: null,
    isArchived: false,
    runId: '',
    overallModifiedDate: T,
    ...overrides,
  };
}

export function testStep(overrides: Partial<TestStep> = {}): TestStep {
  return {
    testStepId: id('step'),
    testReportId: 'report',
    parentStepId: '',
    name: `Step ${n}`,
    description: '',
    stepType: 'TEST_STEP_TYPE_ACTION',
    stepPath: '1',
    status: 'TEST_STATUS_PASSED',
    startTime: T,
    endTime: T,
    errorInfo: null,
    metadata: [],
    ...overrides,
  };
}

export function measurement(overrides: Partial<TestMeasurement> = {}): TestMeasurement {
  return {
    measurementId: id('m'),
    measurementType: 'TEST_MEASUREMENT_TYPE_DOUBLE',
    name: `Measurement ${n}`,
    testStepId: 'step',
    testReportId: 'report',
    unit: null,
    passed: true,
    timestamp: T,
    description: '',
    channelNames: [],
    metadata: [],
    ...overrides,
  };
}

export function artifact(overrides: Partial<Artifact> = {}): Artifact {
  return {
    artifactId: id('artifact'),
    organizationId: 'org',
    createdByUserId: 'u1',
    title: `Artifact ${n}`,
    fileName: 'trace.csv',
    fileType: 'csv',
    storageClass: 'ARTIFACT_STORAGE_CLASS_FILE',
    createdVia: 'ARTIFACT_CREATED_VIA_UPLOAD',
    version: 1,
    versionCreatedDate: T,
    artifactVersionId: id('av'),
    createdDate: T,
    modifiedDate: T,
    archivedDate: null,
    isArchived: false,
    metadata: [],
    links: [],
    sizeBytes: '22',
    mimeType: 'text/csv',
    sha256: '0'.repeat(64),
    ...overrides,
  };
}

export function savedSearch(overrides: Partial<SavedSearch> = {}, properties: Partial<SavedSearch['properties']> = {}): SavedSearch {
  return {
    savedSearchId: id('search'),
    organizationId: 'org',
    name: `Search ${n}`,
    properties: {
      overviewMode: 'ANNOTATIONS',
      assetItems: [],
      userItems: [],
      tagItems: [],
      annotationItems: [],
      runItems: [],
      reportTemplateItems: [],
      metadataItems: [],
      templateItems: [],
      ...properties,
    },
    createdByUserId: 'u1',
    modifiedByUserId: 'u1',
    createdDate: T,
    modifiedDate: T,
    ...overrides,
  };
}
