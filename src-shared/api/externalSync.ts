// sift.external_sync.v1 (reference §9): an organization's SCIM/IdP sync
// settings and its SCIM bearer tokens. The token value appears in exactly one
// response (GenerateToken); it is stored only as a SHA-256 hash.
import { z } from 'zod';
import { defineOperation } from './operation';
import { listRequest, organizationIdExtensionIn } from './common';
import { message, outpostExtension, response, SEED_SPEC_FIELD, timestampOut } from './wire';

export const ExternalSyncOut = response({
  organizationId: z.string(),
  mostRecentSyncDate: timestampOut.optional(),
  mostRecentSyncByUserId: z.string().optional(),
  scimServerUrl: z.string(),
  tokenCreatedDate: timestampOut.optional(),
  tokenLifetimeSeconds: z.number().int().min(0),
  mostRecentTokenByUserId: z.string().optional(),
  /** The identity provider's realm and client (seed spec; plain strings: "" when unset, as the gateway emits them). */
  realm: outpostExtension(z.string(), SEED_SPEC_FIELD),
  client: outpostExtension(z.string(), SEED_SPEC_FIELD),
});
export type ExternalSync = z.infer<typeof ExternalSyncOut>;

/** Never carries the secret. */
export const ExternalSyncTokenOut = response({
  tokenId: z.string(),
  lifetimeSeconds: z.number().int().min(0),
  createdDate: timestampOut,
  createdByUserId: z.string(),
});
export type ExternalSyncToken = z.infer<typeof ExternalSyncTokenOut>;

// The platform's requests are empty (the organization comes from the caller);
// `organization_id` lets a caller in several organizations choose one.
const orgOnly = message({ organizationId: organizationIdExtensionIn });

export const externalSyncOperations = {
  GetExternalSync: defineOperation({
    name: 'GetExternalSync',
    method: 'GET',
    path: '/api/v1/external-sync',
    input: 'query',
    tag: 'ExternalSync',
    summary: "Get the organization's external (SCIM) sync settings and its most recent token's details (never the token)",
    request: orgOnly,
    response: response({ success: z.boolean(), externalSync: ExternalSyncOut }),
  }),
  GenerateToken: defineOperation({
    name: 'GenerateToken',
    method: 'POST',
    path: '/api/v1/external-sync:generate-token',
    input: 'body',
    tag: 'ExternalSync',
    summary: 'Generate a new SCIM token (returned only here, once); it supersedes earlier tokens',
    request: orgOnly,
    response: response({ externalSync: ExternalSyncOut, token: z.string() }),
  }),
  ListExternalSyncTokens: defineOperation({
    name: 'ListExternalSyncTokens',
    method: 'GET',
    path: '/api/v1/external-sync:list-tokens',
    input: 'query',
    tag: 'ExternalSync',
    summary: 'List the SCIM tokens ever generated (without their values), newest first',
    request: listRequest({ organizationId: organizationIdExtensionIn }),
    response: response({ externalSyncTokens: z.array(ExternalSyncTokenOut), nextPageToken: z.string() }),
  }),
} as const;
