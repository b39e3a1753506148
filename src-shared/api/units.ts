// sift.unit.v2 (reference §11.6): the units channels and test measurements name. A unit's abbreviated name is
// the name it was created with, unique within an organization.
import { z } from 'zod';
import { defineOperation } from './operation';
import { listRequest, organizationIdExtensionIn } from './common';
import { message, response } from './wire';

export const UnitOut = response({ unitId: z.string(), abbreviatedName: z.string() });
export type Unit = z.infer<typeof UnitOut>;

export const CreateUnitRequest = message({
  name: z.string().trim().min(1, 'is required'),
  /** Outpost extension: the organization to create in (needed only by callers in several organizations). */
  organizationId: organizationIdExtensionIn,
});
export type CreateUnitInput = z.output<typeof CreateUnitRequest>;

export const unitOperations = {
  ListUnits: defineOperation({
    name: 'ListUnits',
    method: 'GET',
    path: '/api/v2/units',
    input: 'query',
    tag: 'Units',
    summary: 'List units (default order created_date asc)',
    request: listRequest({ organizationId: organizationIdExtensionIn }),
    response: response({ units: z.array(UnitOut), nextPageToken: z.string() }),
  }),
  // The rule has no body: `name` travels in the query string.
  CreateUnit: defineOperation({
    name: 'CreateUnit',
    method: 'POST',
    path: '/api/v2/units',
    input: 'query',
    tag: 'Units',
    summary: 'Create a unit (the name must not exist yet in the organization)',
    request: CreateUnitRequest,
    response: response({ unit: UnitOut }),
  }),
} as const;
