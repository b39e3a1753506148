// The records a Cedar policy can name as its resource: one entity type per
// record table, each with the same attribute shape (organization, creator,
// assignee, tags, assets, the tags of those assets) so a policy reads the same
// over every kind of record. Which record type an operation targets follows
// its tag in the operation table.

export type ChildColumn = readonly [table: string, pkColumn: string, valueColumn: string];

export interface RecordType {
  /** Cedar entity type name. */
  readonly entity: string;
  readonly table: string;
  /** The request field naming one record (`annotationId`); `<field>s` names several (batch operations). */
  readonly idField: string;
  /** The request field holding the record of an update (`annotation` in UpdateAnnotation). */
  readonly bodyField: string;
  /** Where the record's tag names are: [table, record pk column, value column]. */
  readonly tags?: ChildColumn;
  /** Where the record's asset ids are. */
  readonly assets?: ChildColumn;
  readonly assigneeColumn?: string;
  /** Other request fields naming a record of this type by another unique column (a rule's `clientKey`). */
  readonly keys?: readonly { readonly field: string; readonly column: string }[];
  /** Records that belong to one of this type (a report's steps): a request naming one names its parent. */
  readonly children?: readonly ChildRecords[];
}

export interface ChildRecords {
  /** The request field naming the child (`testStepId`; `<field>s` names several). */
  readonly idField: string;
  readonly table: string;
  /** The child table's column holding its parent's pk. */
  readonly parentColumn: string;
}

export const RECORD_TYPES: readonly RecordType[] = [
  {
    entity: 'Annotation',
    table: 'annotations',
    idField: 'annotationId',
    bodyField: 'annotation',
    assigneeColumn: 'assigned_to_user_id',
    tags: ['annotation_tags', 'annotation_pk', 'tag_name'],
    assets: ['annotation_assets', 'annotation_pk', 'asset_id'],
    children: [{ idField: 'annotationLogId', table: 'annotation_logs', parentColumn: 'annotation_pk' }],
  },
  {
    entity: 'Asset',
    table: 'assets',
    idField: 'assetId',
    bodyField: 'asset',
    tags: ['asset_tags', 'asset_pk', 'tag_name'],
    assets: ['assets', 'pk', 'id'],
  },
  {
    entity: 'Run',
    table: 'runs',
    idField: 'runId',
    bodyField: 'run',
    tags: ['run_tags', 'run_pk', 'tag_name'],
    assets: ['run_assets', 'run_pk', 'asset_id'],
  },
  { entity: 'Channel', table: 'channels', idField: 'channelId', bodyField: 'channel', assets: ['channels', 'pk', 'asset_id'] },
  { entity: 'SavedSearch', table: 'saved_searches', idField: 'savedSearchId', bodyField: 'savedSearch' },
  {
    entity: 'Rule',
    table: 'rules',
    idField: 'ruleId',
    bodyField: 'rule',
    assets: ['rule_asset_ids', 'rule_pk', 'asset_id'],
    keys: [{ field: 'clientKey', column: 'client_key' }],
    children: [{ idField: 'ruleVersionId', table: 'rule_versions', parentColumn: 'rule_pk' }],
  },
  { entity: 'Policy', table: 'policies', idField: 'policyId', bodyField: 'policy' },
  {
    entity: 'TestReport',
    table: 'test_reports',
    idField: 'testReportId',
    bodyField: 'testReport',
    children: [
      { idField: 'testStepId', table: 'test_steps', parentColumn: 'report_pk' },
      { idField: 'measurementId', table: 'test_measurements', parentColumn: 'report_pk' },
    ],
  },
  { entity: 'RemoteFile', table: 'remote_files', idField: 'remoteFileId', bodyField: 'remoteFile' },
  {
    entity: 'Artifact',
    table: 'artifacts',
    idField: 'artifactId',
    bodyField: 'artifact',
    children: [{ idField: 'artifactVersionId', table: 'artifact_versions', parentColumn: 'artifact_pk' }],
  },
];

/** Operation table tag -> the record type its operations act on (tags not listed act on the organization). */
const BY_TAG: Readonly<Record<string, string>> = {
  Annotations: 'Annotation',
  'Annotation logs': 'Annotation',
  Assets: 'Asset',
  Runs: 'Run',
  Channels: 'Channel',
  SavedSearches: 'SavedSearch',
  Rules: 'Rule',
  Policies: 'Policy',
  'Test reports': 'TestReport',
  'Remote files': 'RemoteFile',
  Artifacts: 'Artifact',
};

export function recordTypeOfTag(tag: string): RecordType | undefined {
  const entity = BY_TAG[tag];
  return entity === undefined ? undefined : RECORD_TYPES.find((t) => t.entity === entity);
}

export const recordTypeNamed = (entity: string): RecordType | undefined => RECORD_TYPES.find((t) => t.entity === entity);
