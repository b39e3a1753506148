// The change feed (issue #30): which records changed, and why. Not an
// operation of the table (a stream, not one answer): `outpost serve` serves it
// as Server-Sent Events at CHANGES_PATH, the desktop engine host pushes the
// same changes as `changes` bridge events. Documented beside the table in the
// OpenAPI document (openapi.ts changeFeedPath).
import { z } from 'zod';

export const CHANGES_PATH = '/api/v1/outpost/changes';

/** Why records changed: a caller's write, an ATML import, a batch operation, a sync pull, or a gap (see below). */
export const CHANGE_REASONS = ['write', 'import', 'batch', 'sync', 'gap'] as const;
export type ChangeReason = (typeof CHANGE_REASONS)[number];

/** Every resource, in a `gap` change: the reader missed changes it cannot be told about one by one. */
export const ANY_RESOURCE = '*';

export const change = z
  .object({
    /** The record table: `annotations`, `rules`, `policies`, `test_reports`, `annotation_logs`, ... or `*`. */
    resource: z.string(),
    /** The ids of the records that changed, or `many` (too many to list, or not known one by one: reload). */
    ids: z.union([z.array(z.string()), z.literal('many')]),
    reason: z.enum(CHANGE_REASONS),
    /** The user whose call wrote them (absent for a sync pull: the remote's users wrote them). */
    userId: z.string().optional(),
  })
  .meta({ description: 'Records of one resource that changed for one reason' });
export type Change = z.infer<typeof change>;

/** The data of one `changes` event: the changes since the previous event, coalesced. */
export const changesEvent = z
  .object({ changes: z.array(change) })
  .meta({ description: 'One Server-Sent Event (`event: changes`); its `id:` is the position to resume from (Last-Event-ID)' });
export type ChangesEvent = z.infer<typeof changesEvent>;
