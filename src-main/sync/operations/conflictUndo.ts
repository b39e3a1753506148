// Undo of a lost field, per replicated resource: the losing value is written
// again through the resource's own public operation (so it is validated,
// recorded in the outbox and synced like any edit). Values arrive in the
// canonical form the sync resources keep in the conflict log (see
// src-main/sync/resources/*: rowFields / *Fields).
import { formatTimestamp } from '../../../src-shared/api/time';
import type { OperationName } from '../../../src-shared/operations';
import type { RequestContext } from '../../engine';
import { invoke } from '../../services/invoke';

/** The write that puts a value back: an operation and its request. */
interface UndoWrite {
  readonly operation: OperationName;
  readonly request: unknown;
}
type Undo = (recordId: string, field: string, value: unknown) => UndoWrite | undefined;

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
const call = (operation: OperationName, request: unknown): UndoWrite => ({ operation, request });

/** A canonical annotation value -> the wire value UpdateAnnotation takes. */
function annotationPatchValue(field: string, value: unknown): Record<string, unknown> {
  switch (field) {
    case 'start_time':
    case 'end_time':
      return { [camel(field)]: formatTimestamp(value as number) };
    case 'assigned_to_user_id':
      return { assignedToUserId: value ?? '' };
    case 'legend_config':
      return value === null ? {} : { legendConfig: value };
    case 'linked_channels':
      return { linkedChannels: value ?? [] };
    case 'state':
      return value === null ? {} : { state: value };
    default:
      return { [field]: value };
  }
}

const annotation: Undo = (annotationId, field, value) =>
  field === 'archived'
    ? call(value ? 'ArchiveAnnotation' : 'UnarchiveAnnotation', { annotationId })
    : call('UpdateAnnotation', { annotation: { annotationId, ...annotationPatchValue(field, value) }, updateMask: field });

const policy: Undo = (policyId, field, value) => {
  if (field === 'is_archived') return call(value ? 'ArchivePolicy' : 'UnarchivePolicy', { policyId });
  if (field === 'configuration') return call('UpdatePolicy', { policy: { policyId, configuration: { cedarPolicy: value } }, updateMask: 'configuration' });
  if (field === 'name' || field === 'description') return call('UpdatePolicy', { policy: { policyId, [field]: value ?? '' }, updateMask: field });
  return undefined;
};

const savedSearch: Undo = (savedSearchId, field, value) => {
  if (field === 'name') return call('UpdateSavedSearch', { savedSearch: { savedSearchId, name: value }, updateMask: 'name' });
  const property = /^properties\.([a-z_]+)$/.exec(field)?.[1];
  if (!property) return undefined;
  return call('UpdateSavedSearch', { savedSearch: { savedSearchId, properties: value === null ? {} : { [camel(property)]: value } }, updateMask: field });
};

const TEST_REPORT_TIMES = new Set(['start_time', 'end_time']);
const TEST_REPORT_TEXT = new Set(['status', 'name', 'test_system_name', 'test_case', 'serial_number', 'part_number', 'system_operator', 'run_id', 'is_archived']);
const testReport: Undo = (testReportId, field, value) => {
  if (TEST_REPORT_TIMES.has(field)) return call('UpdateTestReport', { testReport: { testReportId, [camel(field)]: formatTimestamp(value as number) }, updateMask: field });
  if (TEST_REPORT_TEXT.has(field)) return call('UpdateTestReport', { testReport: { testReportId, [camel(field)]: value }, updateMask: field });
  return undefined;
};

/** `link:<RELATION>:<ENTITY_TYPE>:<entity id>` valued by the linked version id, null when the link is absent. */
const artifact: Undo = (artifactId, field, value) => {
  if (field === 'is_archived') return call(value ? 'ArchiveArtifact' : 'UnarchiveArtifact', { artifactId });
  const link = /^link:([A-Z_]+):([A-Z_]+):(.+)$/.exec(field);
  if (!link) return undefined;
  const target = { artifactId, relation: `ARTIFACT_LINK_RELATION_${link[1]}`, entityType: `ARTIFACT_ENTITY_TYPE_${link[2]}`, entityId: link[3] };
  return value === null ? call('UnlinkArtifact', target) : call('LinkArtifact', { ...target, artifactVersionId: value });
};

const undoers: Record<string, Undo> = { annotation, policy, saved_search: savedSearch, test_report: testReport, artifact };

/** The write that puts `value` back into `field` of the record; undefined when that field has no automatic undo. */
function undoWrite(resource: string, recordId: string, field: string, value: unknown): UndoWrite | undefined {
  return Object.hasOwn(undoers, resource) ? undoers[resource](recordId, field, value) : undefined;
}

/** Whether UndoSyncConflict can write a field conflict's losing value back (the renderer offers Undo only then). */
export const canUndoField = (resource: string, recordId: string, field: string, value: unknown) => undoWrite(resource, recordId, field, value) !== undefined;

/** Writes `value` back into `field` of the record as an ordinary (validated, recorded, synced) edit. */
export async function undoFieldWrite(ctx: RequestContext, resource: string, recordId: string, field: string, value: unknown): Promise<boolean> {
  const write = undoWrite(resource, recordId, field, value);
  if (!write) return false;
  await invoke(ctx, write.operation, write.request);
  return true;
}
