// External (SCIM) sync: the organization's settings and its SCIM bearer tokens.
// A token is random, returned once by GenerateToken, stored only as its SHA-256
// hash, valid for its lifetime, and superseded by the next token generated for
// the organization (only the newest token is accepted).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ExternalSync, ExternalSyncToken } from '../../../src-shared/api/externalSync';
import { formatTimestamp, nowMicros, type Micros } from '../../../src-shared/api/time';
import { ApiError } from '../../../src-shared/errors';
import { resolveOrganization } from '../../auth/caller';
import type { Db } from '../../db/database';
import type { RequestContext } from '../../engine';
import { listPage, type ListParams } from '../../filter/listQuery';
import { externalSyncTokenListSpec } from './externalSyncTokenListSpec';

/** Lifetime of a generated token (GenerateTokenRequest is empty, so every token gets it). */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 90 * 24 * 60 * 60;
export const TOKEN_PREFIX = 'opscim_';

/**
 * The SCIM base URL an IdP is configured with. The service cannot know the
 * host the server is reached by, so this is a stable local value per organization.
 */
export const scimServerUrl = (organizationId: string) => `http://127.0.0.1/scim/v2/${organizationId}`;

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

interface TokenRow {
  pk: number;
  id: string;
  organization_id: string;
  token_hash: string;
  lifetime_seconds: number;
  created_by_user_id: string;
  created_date: number;
}

const newestToken = (db: Db, organizationId: string) =>
  db.get<TokenRow>('SELECT * FROM external_sync_tokens WHERE organization_id = ? ORDER BY created_date DESC, pk DESC LIMIT 1', [
    organizationId,
  ]);

function externalSyncOf(db: Db, organizationId: string): ExternalSync {
  const token = newestToken(db, organizationId);
  // Proto field order; proto3 optional fields are omitted when unset. No sync run
  // happens locally, so most_recent_sync_date / most_recent_sync_by_user_id stay unset.
  return {
    organizationId,
    scimServerUrl: scimServerUrl(organizationId),
    ...(token ? { tokenCreatedDate: formatTimestamp(token.created_date) } : {}),
    // Before the first token: the lifetime the first token will get.
    tokenLifetimeSeconds: token?.lifetime_seconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS,
    ...(token ? { mostRecentTokenByUserId: token.created_by_user_id } : {}),
    // No identity provider is configured locally: unset strings.
    realm: '',
    client: '',
  };
}

export function getExternalSync(ctx: RequestContext, organizationId?: string): { success: boolean; externalSync: ExternalSync } {
  const org = resolveOrganization(ctx.caller, organizationId);
  return { success: true, externalSync: externalSyncOf(ctx.db, org) };
}

export function generateToken(ctx: RequestContext, organizationId?: string): { externalSync: ExternalSync; token: string } {
  const org = resolveOrganization(ctx.caller, organizationId);
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return ctx.db.tx(() => {
    ctx.db.run(
      'INSERT INTO external_sync_tokens(id, organization_id, token_hash, lifetime_seconds, created_by_user_id, created_date) VALUES (?, ?, ?, ?, ?, ?)',
      [randomUUID(), org, hashToken(token), DEFAULT_TOKEN_LIFETIME_SECONDS, ctx.caller.userId, nowMicros()],
    );
    return { externalSync: externalSyncOf(ctx.db, org), token };
  });
}

export function listExternalSyncTokens(ctx: RequestContext, req: ListParams & { organizationId?: string }) {
  const org = resolveOrganization(ctx.caller, req.organizationId);
  const page = listPage(
    ctx.db,
    externalSyncTokenListSpec,
    req,
    { sql: 't.organization_id = ?', params: [org], fingerprint: [org] },
    ctx.engine.pageTokenSecret,
  );
  const rows = ctx.db.all<TokenRow>('SELECT * FROM external_sync_tokens WHERE pk IN (SELECT value FROM json_each(?))', [
    JSON.stringify(page.keys),
  ]);
  const byPk = new Map(rows.map((r) => [r.pk, r]));
  const externalSyncTokens: ExternalSyncToken[] = page.keys.map((pk) => {
    const r = byPk.get(pk)!;
    return {
      tokenId: r.id,
      lifetimeSeconds: r.lifetime_seconds,
      createdDate: formatTimestamp(r.created_date),
      createdByUserId: r.created_by_user_id,
    };
  });
  return { externalSyncTokens, nextPageToken: page.nextPageToken };
}

export interface VerifiedExternalSyncToken {
  readonly tokenId: string;
  readonly organizationId: string;
  readonly expiresDate: Micros;
}

/**
 * Checks a presented SCIM bearer token: it must exist, be the organization's
 * newest token and be within its lifetime. Otherwise UNAUTHENTICATED, saying why.
 */
export function verifyExternalSyncToken(db: Db, token: string, now: Micros = nowMicros()): VerifiedExternalSyncToken {
  const row = token ? db.get<TokenRow>('SELECT * FROM external_sync_tokens WHERE token_hash = ?', [hashToken(token)]) : undefined;
  if (!row) throw ApiError.unauthenticated('invalid external sync token');
  const expiresDate = row.created_date + row.lifetime_seconds * 1_000_000;
  if (now >= expiresDate) throw ApiError.unauthenticated(`external sync token expired at ${formatTimestamp(expiresDate)}`);
  const newest = newestToken(db, row.organization_id);
  if (newest && newest.pk !== row.pk) throw ApiError.unauthenticated('external sync token was superseded by a newer token');
  return { tokenId: row.id, organizationId: row.organization_id, expiresDate };
}
