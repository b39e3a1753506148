// sift.users.v2 + sift.me.v2 (reference §11.4, §1.8): users are visible only
// to callers sharing an organization with them.
import { z } from 'zod';
import { defineOperation } from './operation';
import { listRequest, OrganizationOut, organizationIdIn, UserOut } from './common';
import { message, response, timestampOut } from './wire';

export const GetMeResponse = response({
  userId: z.string(),
  userEmail: z.string(),
  organizations: z.array(OrganizationOut),
  isAdmin: z.boolean(),
  permissions: response({
    organizationPermissionResources: z.record(
      z.string(),
      response({ permissionResources: z.record(z.string(), response({ assetIds: z.array(z.string()), allAssets: z.boolean() })) }),
    ),
  }),
  createdDate: timestampOut,
  /** Deprecated upstream; always empty. */
  hashBasedMessageAuthenticationCode: z.string(),
});
export type GetMe = z.infer<typeof GetMeResponse>;

export const userOperations = {
  GetUser: defineOperation({
    name: 'GetUser',
    method: 'GET',
    path: '/api/v2/users/{user_id}',
    input: 'path',
    tag: 'Users',
    summary: 'Get a user who shares an organization with the caller',
    request: message({ userId: z.string().min(1, 'is required') }),
    response: response({ user: UserOut }),
  }),
  ListActiveUsers: defineOperation({
    name: 'ListActiveUsers',
    method: 'GET',
    path: '/api/v2/users',
    input: 'query',
    tag: 'Users',
    summary: 'List the active users of an organization (default order name asc)',
    request: listRequest({ organizationId: organizationIdIn }),
    response: response({ users: z.array(UserOut), nextPageToken: z.string() }),
  }),
  ListUsers: defineOperation({
    name: 'ListUsers',
    method: 'GET',
    path: '/api/v2/users:all',
    input: 'query',
    tag: 'Users',
    summary: "List the users of the caller's organizations, active or not (default order created_date asc)",
    request: listRequest(),
    response: response({ users: z.array(UserOut), nextPageToken: z.string() }),
  }),
  GetMe: defineOperation({
    name: 'GetMe',
    method: 'GET',
    path: '/api/v2/me',
    input: 'path',
    tag: 'Users',
    summary: 'The calling user and their organizations',
    request: message({}),
    response: GetMeResponse,
  }),
} as const;
