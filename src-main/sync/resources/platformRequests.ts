// What the sync may ask the remote, operation by operation, as the platform's
// API documents it (docs/reference/sift-wire.md, section in `source`; the
// seed spec for ListArtifacts; Outpost's own operation table for its
// extensions, which the platform lacks and the sync probes for). ONE place:
// the strict stand-in remote of the sync tests (tests/support/strictRemote.ts)
// refuses every request outside it, the recorded-request test checks every
// request a full sync sends against it, and tests/contract/platformRequests
// checks it against the reference and the operation table. A puller or spec
// that needs another order field, filter field, query parameter or mask path
// must find it documented first, then add it here.
//
// Outpost serves the same API from the same reference, so an operation's query
// parameters are its request's fields off the path (the operation table), and a
// list's order and filter fields are those of its list spec (services): only what
// Outpost serves beyond the platform is written here (`beyond`).
//
// Names are proto (snake_case) names: query parameters arrive snake_case or
// lowerCamelCase, mask paths lowerCamelCase; both are compared in snake_case.
import type { z } from 'zod';
import type { OperationDef } from '../../../src-shared/api/operation';
import { camelToSnake, documentedObject } from '../../../src-shared/api/wire';
import { operations, type OperationName } from '../../../src-shared/operations';
import type { ListSpec } from '../../filter/resource';
import { annotationListSpec } from '../../services/annotations/annotationListSpec';
import { annotationLogListSpec } from '../../services/annotations/annotationLogListSpec';
import { ANNOTATION_EDITABLE_PATHS } from '../../services/annotations/annotationFields';
import { artifactListSpec } from '../../services/artifacts/artifactListSpecs';
import { policyListSpec } from '../../services/policies/policyListSpecs';
import { assetListSpec, channelListSpec, runListSpec, tagListSpec, userListSpec } from '../../services/reference/listSpecs';
import { remoteFileListSpec } from '../../services/remoteFiles/remoteFileListSpec';
import { ruleListSpec } from '../../services/rules/ruleListSpecs';
import { savedSearchListSpec } from '../../services/savedSearches/savedSearchListSpec';
import { TEST_MEASUREMENT_UPDATABLE_PATHS } from '../../services/testReports/testMeasurementsService';
import { testMeasurementListSpec, testReportListSpec, testStepListSpec } from '../../services/testReports/testReportListSpecs';
import { TEST_REPORT_UPDATABLE_PATHS } from '../../services/testReports/testReportsService';
import { TEST_STEP_UPDATABLE_PATHS } from '../../services/testReports/testStepsService';

export interface PlatformRequest {
  /** Where it is documented: `§n` of the wire reference, `seed spec`, or `Outpost extension`. */
  readonly source: string;
  /** Query parameters besides the path's own fields (GET and DELETE only; a body operation reads no query). */
  readonly query?: readonly string[];
  /** Fields `order_by` may name (each optionally ` desc`). */
  readonly orderBy?: readonly string[];
  /** Identifiers a CEL `filter` may name at its top level (comprehension variables aside). */
  readonly filter?: readonly string[];
  /** Paths `update_mask` may list. */
  readonly mask?: readonly string[];
}

/** How an operation is asked: where it is documented, its list spec, its mask paths, and what Outpost serves beyond the platform. */
interface Asked {
  readonly source: string;
  readonly list?: ListSpec;
  readonly mask?: readonly string[];
  readonly beyond?: { readonly query?: readonly string[]; readonly orderBy?: readonly string[]; readonly filter?: readonly string[] };
}

/** Reference data Outpost also lists per organization (the platform lists it for the key's user). */
const ORGANIZATION_PARAMETER = { query: ['organization_id'] } as const;

const asked = {
  Ping: { source: '§1.1' },
  GetMe: { source: '§11.4' },

  // §3 Annotations
  ListAnnotations: { source: '§3, §1.6', list: annotationListSpec },
  GetAnnotation: { source: '§3' },
  CreateAnnotation: { source: '§3' },
  UpdateAnnotation: { source: '§3', mask: ANNOTATION_EDITABLE_PATHS },
  ArchiveAnnotation: { source: '§3' },
  UnarchiveAnnotation: { source: '§3' },
  BatchArchiveAnnotations: { source: '§3' },
  BatchUnarchiveAnnotations: { source: '§3' },
  DeleteAnnotation: { source: '§3' },
  BatchDeleteAnnotations: { source: '§3' },

  // §4 Annotation logs (no order_by field exists)
  ListAnnotationLogs: { source: '§4', list: annotationLogListSpec, beyond: { orderBy: ['created_date'] } },
  ListAllAnnotationLogs: { source: '§4', list: annotationLogListSpec, beyond: { orderBy: ['created_date'] } },
  CreateAnnotationLog: { source: '§4' },
  DeleteAnnotationLog: { source: '§4' },

  // §5 Saved searches
  ListSavedSearches: { source: '§5', list: savedSearchListSpec },
  CreateSavedSearch: { source: '§5' },
  UpdateSavedSearch: { source: '§5', mask: ['name', 'properties'] },
  DeleteSavedSearch: { source: '§5' },
  BatchDeleteSavedSearches: { source: '§5' },

  // §6 Rules (pull only)
  ListRules: { source: '§6', list: ruleListSpec, beyond: ORGANIZATION_PARAMETER },
  BatchGetRules: { source: '§6' },

  // §7 Policies (archived ones through the include_archived parameter: archive state is not filterable)
  ListPolicies: { source: '§7', list: policyListSpec },
  GetPolicy: { source: '§7' },
  CreatePolicy: { source: '§7' },
  UpdatePolicy: { source: '§7', mask: ['name', 'description', 'configuration', 'is_archived'] },
  ArchivePolicy: { source: '§7' },
  UnarchivePolicy: { source: '§7' },

  // §8 Test reports (the Python client also filters reports on created_date and is_archived)
  ListTestReports: { source: '§8', list: testReportListSpec },
  GetTestReport: { source: '§8' },
  CreateTestReport: { source: '§8' },
  ImportTestReport: { source: '§8, §10.3' },
  UpdateTestReport: { source: '§8', mask: TEST_REPORT_UPDATABLE_PATHS },
  DeleteTestReport: { source: '§8' },
  ListTestSteps: { source: '§8', list: testStepListSpec },
  CreateTestStep: { source: '§8' },
  UpdateTestStep: { source: '§8', mask: TEST_STEP_UPDATABLE_PATHS },
  DeleteTestStep: { source: '§8' },
  ListTestMeasurements: { source: '§8', list: testMeasurementListSpec },
  CreateTestMeasurement: { source: '§8' },
  CreateTestMeasurements: { source: '§8' },
  UpdateTestMeasurement: { source: '§8', mask: TEST_MEASUREMENT_UPDATABLE_PATHS },
  DeleteTestMeasurement: { source: '§8' },

  // §10 Remote files
  ListRemoteFiles: { source: '§10.2', list: remoteFileListSpec },
  UploadRemoteFile: { source: '§10.3' },

  // §11 Reference data (pulled for name resolution)
  ListAssets: { source: '§11.1', list: assetListSpec, beyond: ORGANIZATION_PARAMETER },
  ListRuns: { source: '§11.2', list: runListSpec, beyond: ORGANIZATION_PARAMETER },
  ListTags: { source: '§11.3', list: tagListSpec, beyond: ORGANIZATION_PARAMETER },
  ListActiveUsers: { source: '§11.4', list: userListSpec },
  ListChannels: { source: '§11.5', list: channelListSpec, beyond: ORGANIZATION_PARAMETER },

  // Artifacts: ListArtifacts as the seed spec defines it (archived ones only through the filter's
  // `include_archived == true`; no include_archived parameter, no modified_date); the rest are Outpost
  // extensions (the platform answers 404 and the sync holds them: README.md of sync, Artifacts).
  ListArtifacts: {
    source: 'seed spec',
    list: artifactListSpec,
    beyond: { query: ['include_archived'], orderBy: ['modified_date'], filter: ['modified_date'] },
  },
  GetArtifact: { source: 'Outpost extension' },
  ListArtifactVersions: { source: 'Outpost extension' },
  DownloadArtifactContent: { source: 'Outpost extension' },
  UploadArtifact: { source: 'Outpost extension' },
  CreateStructuredArtifact: { source: 'Outpost extension' },
  CreateArtifactVersion: { source: 'Outpost extension' },
  LinkArtifact: { source: 'Outpost extension' },
  UnlinkArtifact: { source: 'Outpost extension' },
  ArchiveArtifact: { source: 'Outpost extension' },
  UnarchiveArtifact: { source: 'Outpost extension' },
} as const satisfies Partial<Record<OperationName, Asked>>;

/** `names` without what Outpost serves beyond the platform; undefined when none is left. */
const without = (names: readonly string[], beyond: readonly string[] = []) => {
  const left = names.filter((n) => !beyond.includes(n));
  return left.length ? left : undefined;
};

/** The fields of an operation's request that travel in the query: all but the path's (GET and DELETE). */
function queryOf(op: OperationDef): readonly string[] {
  if (op.method !== 'GET' && op.method !== 'DELETE') return [];
  const onPath = new Set([...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  const request = (documentedObject.get(op.request) ?? op.request) as z.ZodObject;
  return Object.keys(request.shape)
    .map(camelToSnake)
    .filter((f) => !onPath.has(f));
}

function platformRequest(name: OperationName, a: Asked): PlatformRequest {
  return {
    source: a.source,
    query: without(queryOf(operations[name]), a.beyond?.query),
    orderBy: a.list && without(Object.keys(a.list.orderFields), a.beyond?.orderBy),
    filter: a.list && without(Object.keys(a.list.filterFields), a.beyond?.filter),
    mask: a.mask,
  };
}

export const platformRequests = Object.fromEntries(
  Object.entries(asked).map(([name, a]) => [name, platformRequest(name as OperationName, a)]),
) as Record<keyof typeof asked, PlatformRequest>;
