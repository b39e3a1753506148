// sift.runs.v2 (reference §11.2): the Run resource and RunService operations.
import { z } from 'zod';
import { defineOperation } from './operation';
import { EmptyOut, listRequest, organizationIdExtensionIn, organizationIdIn } from './common';
import { MetadataValueIn, MetadataValueOut } from './metadata';
import { boolIn, fieldMaskIn, message, response, timestampIn, timestampOut } from './wire';

export const RunOut = response({
  runId: z.string(),
  createdDate: timestampOut,
  modifiedDate: timestampOut,
  createdByUserId: z.string(),
  modifiedByUserId: z.string(),
  organizationId: z.string(),
  // proto3 `optional` fields (start_time, stop_time, client_key, archived_date, duration) are omitted when unset.
  startTime: timestampOut.optional(),
  stopTime: timestampOut.optional(),
  isPinned: z.boolean(),
  name: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  defaultReportId: z.string(),
  clientKey: z.string().optional(),
  metadata: z.array(MetadataValueOut),
  assetIds: z.array(z.string()),
  archivedDate: timestampOut.optional(),
  isAdhoc: z.boolean(),
  isArchived: z.boolean(),
  /** google.protobuf.Duration ("123.5s"): stop - start, or start - now while running. */
  duration: z.string().optional(),
});
export type Run = z.infer<typeof RunOut>;

const runBody = { run: RunOut };
const idPath = { runId: z.string().min(1, 'is required') };

export const CreateRunRequest = message({
  name: z.string().min(1, 'is required'),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  startTime: timestampIn.optional(),
  stopTime: timestampIn.optional(),
  organizationId: organizationIdIn,
  clientKey: z.string().optional(),
  metadata: z.array(MetadataValueIn).optional(),
  /** Accepted for compatibility; Outpost has no reports, so default_report_id stays empty. */
  createDefaultReport: boolIn.optional(),
});
export type CreateRunInput = z.output<typeof CreateRunRequest>;

export const CreateAdhocRunRequest = message({
  name: z.string().min(1, 'is required'),
  description: z.string().optional(),
  startTime: timestampIn,
  stopTime: timestampIn,
  assetIds: z.array(z.string().min(1, 'must not be empty')).min(1, 'at least one asset id is required'),
  tags: z.array(z.string()).optional(),
  metadata: z.array(MetadataValueIn).optional(),
  clientKey: z.string().optional(),
  /** Outpost extension: the organization (otherwise taken from the assets). */
  organizationId: organizationIdExtensionIn,
});
export type CreateAdhocRunInput = z.output<typeof CreateAdhocRunRequest>;

/** The run inside an UpdateRunRequest: only mask-named fields are read. */
export const RunPatchIn = message({
  runId: z.string().min(1, 'is required'),
  name: z.string().optional(),
  description: z.string().optional(),
  startTime: timestampIn.optional(),
  stopTime: timestampIn.optional(),
  isPinned: boolIn.optional(),
  clientKey: z.string().optional(),
  tags: z.array(z.string()).optional(),
  isArchived: boolIn.optional(),
  metadata: z.array(MetadataValueIn).optional(),
});
export type RunPatch = z.output<typeof RunPatchIn>;

export const runOperations = {
  GetRun: defineOperation({
    name: 'GetRun',
    method: 'GET',
    path: '/api/v2/runs/{run_id}',
    input: 'path',
    tag: 'Runs',
    summary: 'Get a run',
    request: message(idPath),
    response: response(runBody),
  }),
  ListRuns: defineOperation({
    name: 'ListRuns',
    method: 'GET',
    path: '/api/v2/runs',
    input: 'query',
    tag: 'Runs',
    summary: 'List runs (default order created_date desc)',
    request: listRequest({ organizationId: organizationIdExtensionIn }),
    response: response({ runs: z.array(RunOut), nextPageToken: z.string() }),
  }),
  CreateRun: defineOperation({
    name: 'CreateRun',
    method: 'POST',
    path: '/api/v2/runs',
    input: 'body',
    tag: 'Runs',
    summary: 'Create a run (client_key unique within the organization)',
    request: CreateRunRequest,
    response: response(runBody),
  }),
  CreateAdhocRun: defineOperation({
    name: 'CreateAdhocRun',
    method: 'POST',
    path: '/api/v2/runs:adhoc',
    input: 'body',
    tag: 'Runs',
    summary: 'Create an ad hoc run over existing assets and a fixed time range',
    request: CreateAdhocRunRequest,
    response: response(runBody),
  }),
  UpdateRun: defineOperation({
    name: 'UpdateRun',
    method: 'PATCH',
    path: '/api/v2/runs',
    input: 'body',
    tag: 'Runs',
    summary: 'Update the fields of a run named by update_mask',
    request: message({ run: RunPatchIn, updateMask: fieldMaskIn }),
    response: response(runBody),
  }),
  StopRun: defineOperation({
    name: 'StopRun',
    method: 'PATCH',
    path: '/api/v2/runs:stop',
    input: 'body',
    tag: 'Runs',
    summary: 'Set the stop time of a running run to now',
    request: message(idPath),
    response: EmptyOut,
  }),
  DeleteRun: defineOperation({
    name: 'DeleteRun',
    method: 'DELETE',
    path: '/api/v2/runs/{run_id}',
    input: 'path',
    tag: 'Runs',
    summary: 'Delete (archive) a stopped run (deprecated; archives)',
    request: message(idPath),
    response: EmptyOut,
  }),
  CreateAutomaticRunAssociationForAssets: defineOperation({
    name: 'CreateAutomaticRunAssociationForAssets',
    method: 'POST',
    path: '/api/v2/runs/{run_id}:create-automatic-run-association-for-assets',
    input: 'body',
    tag: 'Runs',
    summary:
      "Associate assets (by name) with a run: they join the run's asset_ids; an asset already in another run whose period overlaps this run's is refused",
    request: message({
      ...idPath,
      assetNames: z.array(z.string().min(1, 'must not be empty')).min(1, 'at least one asset name is required'),
    }),
    response: EmptyOut,
  }),
} as const;
