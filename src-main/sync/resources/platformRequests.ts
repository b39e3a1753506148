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
// Names are proto (snake_case) names: query parameters arrive snake_case or
// lowerCamelCase, mask paths lowerCamelCase; both are compared in snake_case.
import type { OperationName } from '../../../src-shared/operations';
import { ANNOTATION_EDITABLE_PATHS } from '../../services/annotations/annotationFields';
import { TEST_MEASUREMENT_UPDATABLE_PATHS } from '../../services/testReports/testMeasurementsService';
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

const LIST = ['page_size', 'page_token', 'filter', 'order_by'] as const;
const LIST_IN_ORGANIZATION = [...LIST, 'organization_id'] as const;

const ANNOTATION_FILTER = [
  'annotation_id',
  'start_time',
  'end_time',
  'created_date',
  'modified_date',
  'run_id',
  'name',
  'description',
  'state',
  'created_by_user_id',
  'created_by_rule_condition_version_id',
  'rule_id',
  'annotation_type',
  'tag_name',
  'report_id',
  'asset_id',
  'asset_name',
  'pending',
  'assignee',
  'campaign_reports',
  'metadata',
  'archived_date',
  'is_archived',
] as const;
const ANNOTATION_LOG_FILTER = [
  'annotation_log_id',
  'annotation_id',
  'created_by_user_id',
  'created_date',
  'modified_date',
  'kind',
] as const;
const TEST_STEP_FIELDS = [
  'test_step_id',
  'name',
  'step_type',
  'step_path',
  'status',
  'start_time',
  'end_time',
  'created_date',
  'modified_date',
] as const;
const TEST_MEASUREMENT_FIELDS = [
  'measurement_id',
  'name',
  'measurement_type',
  'test_step_id',
  'test_report_id',
  'passed',
  'timestamp',
  'created_date',
  'modified_date',
] as const;

export const platformRequests = {
  Ping: { source: '§1.1' },
  GetMe: { source: '§11.4' },

  // §3 Annotations
  ListAnnotations: {
    source: '§3, §1.6',
    query: LIST_IN_ORGANIZATION,
    orderBy: ['created_date', 'modified_date', 'start_time', 'end_time', 'name', 'description'],
    filter: ANNOTATION_FILTER,
  },
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
  ListAnnotationLogs: { source: '§4', query: ['page_size', 'page_token', 'filter'], filter: ANNOTATION_LOG_FILTER },
  ListAllAnnotationLogs: { source: '§4', query: ['annotation_id', 'page_size', 'page_token', 'filter'], filter: ANNOTATION_LOG_FILTER },
  CreateAnnotationLog: { source: '§4' },
  DeleteAnnotationLog: { source: '§4' },

  // §5 Saved searches
  ListSavedSearches: {
    source: '§5',
    query: LIST_IN_ORGANIZATION,
    orderBy: ['name', 'created_date', 'modified_date'],
    filter: ['name', 'saved_search_id', 'overview_mode'],
  },
  CreateSavedSearch: { source: '§5' },
  UpdateSavedSearch: { source: '§5', mask: ['name', 'properties'] },
  DeleteSavedSearch: { source: '§5' },
  BatchDeleteSavedSearches: { source: '§5' },

  // §6 Rules (pull only)
  ListRules: {
    source: '§6',
    query: LIST,
    orderBy: ['created_date', 'modified_date'],
    filter: [
      'rule_id',
      'client_key',
      'name',
      'description',
      'is_external',
      'asset_id',
      'tag_id',
      'created_date',
      'created_by_user_id',
      'metadata',
      'modified_date',
      'modified_by_user_id',
      'deleted_date',
      'is_archived',
      'archived_date',
      'is_live_evaluation_enabled',
      'folders',
      'activeFolders',
    ],
  },
  BatchGetRules: { source: '§6' },

  // §7 Policies (archived ones through the include_archived parameter: archive state is not filterable)
  ListPolicies: {
    source: '§7',
    query: [...LIST, 'include_archived'],
    orderBy: ['created_date', 'modified_date', 'name'],
    filter: [
      'policy_id',
      'organization_id',
      'name',
      'description',
      'created_by_user_id',
      'modified_by_user_id',
      'created_date',
      'modified_date',
    ],
  },
  GetPolicy: { source: '§7' },
  CreatePolicy: { source: '§7' },
  UpdatePolicy: { source: '§7', mask: ['name', 'description', 'configuration', 'is_archived'] },
  ArchivePolicy: { source: '§7' },
  UnarchivePolicy: { source: '§7' },

  // §8 Test reports (the Python client also filters reports on created_date and is_archived)
  ListTestReports: {
    source: '§8',
    query: LIST,
    orderBy: ['test_report_id', 'name', 'test_system_name', 'test_case', 'start_time', 'end_time', 'created_date', 'modified_date'],
    filter: [
      'test_report_id',
      'status',
      'name',
      'test_system_name',
      'test_case',
      'start_time',
      'end_time',
      'serial_number',
      'created_by_user_id',
      'modified_by_user_id',
      'part_number',
      'system_operator',
      'run_id',
      'archived_date',
      'metadata',
      'created_date',
      'is_archived',
    ],
  },
  GetTestReport: { source: '§8' },
  CreateTestReport: { source: '§8' },
  ImportTestReport: { source: '§8, §10.3' },
  UpdateTestReport: { source: '§8', mask: TEST_REPORT_UPDATABLE_PATHS },
  DeleteTestReport: { source: '§8' },
  ListTestSteps: {
    source: '§8',
    query: LIST,
    orderBy: TEST_STEP_FIELDS,
    filter: [...TEST_STEP_FIELDS, 'test_report_id', 'parent_step_id', 'description', 'error_code', 'error_message', 'metadata'],
  },
  CreateTestStep: { source: '§8' },
  UpdateTestStep: { source: '§8', mask: TEST_STEP_UPDATABLE_PATHS },
  DeleteTestStep: { source: '§8' },
  ListTestMeasurements: {
    source: '§8',
    query: LIST,
    orderBy: TEST_MEASUREMENT_FIELDS,
    filter: [...TEST_MEASUREMENT_FIELDS, 'numeric_value', 'string_value', 'boolean_value', 'metadata'],
  },
  CreateTestMeasurement: { source: '§8' },
  CreateTestMeasurements: { source: '§8' },
  UpdateTestMeasurement: { source: '§8', mask: TEST_MEASUREMENT_UPDATABLE_PATHS },
  DeleteTestMeasurement: { source: '§8' },

  // §10 Remote files
  ListRemoteFiles: {
    source: '§10.2',
    query: LIST_IN_ORGANIZATION,
    orderBy: ['name', 'created_date', 'modified_date'],
    filter: ['remote_file_id', 'entity_id', 'entity_type', 'metadata', 'file_name'],
  },
  UploadRemoteFile: { source: '§10.3' },

  // §11 Reference data (pulled for name resolution)
  ListAssets: {
    source: '§11.1',
    query: LIST,
    orderBy: ['name', 'created_date', 'modified_date', 'archived_date'],
    filter: [
      'asset_id',
      'created_by_user_id',
      'modified_by_user_id',
      'created_date',
      'modified_date',
      'name',
      'name_lower',
      'tag_id',
      'tag_name',
      'archived_date',
      'is_archived',
      'metadata',
    ],
  },
  ListRuns: {
    source: '§11.2',
    query: LIST,
    orderBy: ['name', 'description', 'created_date', 'modified_date', 'start_time', 'stop_time'],
    filter: [
      'run_id',
      'organization_id',
      'asset_id',
      'asset_name',
      'client_key',
      'name',
      'description',
      'created_by_user_id',
      'modified_by_user_id',
      'created_date',
      'modified_date',
      'start_time',
      'stop_time',
      'tag_id',
      'asset_tag_id',
      'duration',
      'duration_string',
      'annotation_comments_count',
      'annotation_state',
      'archived_date',
      'is_archived',
      'metadata',
    ],
  },
  ListTags: { source: '§11.3', query: [...LIST, 'tag_type'], orderBy: ['created_date', 'name'], filter: ['tag_id', 'name'] },
  ListActiveUsers: {
    source: '§11.4',
    query: LIST_IN_ORGANIZATION,
    orderBy: ['name', 'created_date', 'modified_date'],
    filter: ['user_id', 'name'],
  },
  ListChannels: {
    source: '§11.5',
    query: LIST,
    orderBy: ['name', 'created_date', 'modified_date', 'active'],
    filter: [
      'channel_id',
      'asset_id',
      'name',
      'description',
      'run_id',
      'run_name',
      'run_client_key',
      'created_date',
      'modified_date',
      'created_by_user_id',
      'modified_by_user_id',
    ],
  },

  // Artifacts: ListArtifacts as the seed spec defines it (archived ones only through the filter's
  // `include_archived == true`; no include_archived parameter, no modified_date); the rest are Outpost
  // extensions (the platform answers 404 and the sync holds them: README.md of sync, Artifacts).
  ListArtifacts: {
    source: 'seed spec',
    query: [...LIST_IN_ORGANIZATION, 'conversation_id'],
    orderBy: ['created_date', 'version_created_date', 'archived_date', 'title', 'version', 'file_type'],
    filter: [
      'artifact_id',
      'organization_id',
      'created_by_user_id',
      'storage_class',
      'created_via',
      'title',
      'file_name',
      'file_type',
      'version',
      'created_date',
      'version_created_date',
      'archived_date',
      'include_archived',
      'metadata',
      'links',
    ],
  },
  GetArtifact: { source: 'Outpost extension' },
  ListArtifactVersions: { source: 'Outpost extension', query: ['page_size', 'page_token'] },
  DownloadArtifactContent: { source: 'Outpost extension', query: ['version'] },
  UploadArtifact: { source: 'Outpost extension' },
  CreateStructuredArtifact: { source: 'Outpost extension' },
  CreateArtifactVersion: { source: 'Outpost extension' },
  LinkArtifact: { source: 'Outpost extension' },
  UnlinkArtifact: { source: 'Outpost extension' },
  ArchiveArtifact: { source: 'Outpost extension' },
  UnarchiveArtifact: { source: 'Outpost extension' },
} as const satisfies Partial<Record<OperationName, PlatformRequest>>;

export type PlatformOperation = keyof typeof platformRequests;
