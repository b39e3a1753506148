// Request/response pieces shared by many operations.
import { z } from 'zod';
import { message, outpostExtension, pageSizeIn, response } from './wire';

/** The common list request (AIP-158/132): page_size, page_token, filter, order_by. */
export const listShape = {
  pageSize: pageSizeIn.optional(),
  pageToken: z.string().optional(),
  filter: z.string().optional(),
  orderBy: z.string().optional(),
};

export const listRequest = <S extends Record<string, z.ZodType>>(extra: S = {} as S) => message({ ...listShape, ...extra });

export const Empty = message({});
export const EmptyOut = response({});

export const organizationIdIn = z.string().optional();
/**
 * An `organization_id` on a request whose platform message has none (an Outpost extension): it narrows a list to one
 * organization, or names where a caller in several organizations creates something.
 */
export const organizationIdExtensionIn = outpostExtension(z.string().optional());

/**
 * sift.common.type.v1.Organization. `isAbacEnabled` (proto3 optional): Outpost decides every operation by the
 * organization's Cedar policies over attributes, so the user services and GetMe say true; users embedded in other
 * records (an annotation's creator) leave it unset.
 */
export const OrganizationOut = response({
  organizationId: z.string(),
  organizationName: z.string(),
  isAbacEnabled: z.boolean().optional(),
});

export const UserOut = response({
  userId: z.string(),
  userName: z.string(),
  organizations: z.array(OrganizationOut),
});
