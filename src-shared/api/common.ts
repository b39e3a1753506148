// Request/response pieces shared by many operations.
import { z } from 'zod';
import { message, pageSizeIn, response } from './wire';

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

export const UserOut = response({
  userId: z.string(),
  userName: z.string(),
  organizations: z.array(response({ organizationId: z.string(), organizationName: z.string() })),
});
