// API keys: random bearer tokens, stored only as SHA-256 hashes.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ApiError } from '../../src-shared/errors';
import { nowMicros } from '../../src-shared/api/time';
import type { Db } from '../db/database';
import type { Caller } from './caller';
import { cachedCaller, rememberCaller } from './callerCache';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from './identity';

const hashKey = (token: string) => createHash('sha256').update(token).digest('hex');

export function createApiKey(
  db: Db,
  userName: string,
  organizationName: string,
  name = '',
  options: { owner?: boolean } = {},
): { token: string; userId: string; organizationId: string } {
  const { userId, organizationId } = ensureMember(db, userName, organizationName);
  const token = `op_${randomBytes(32).toString('base64url')}`;
  db.run('INSERT INTO api_keys(id, key_hash, user_id, name, created_date, owner) VALUES (?, ?, ?, ?, ?, ?)', [
    randomUUID(),
    hashKey(token),
    userId,
    name,
    nowMicros(),
    options.owner ? 1 : 0,
  ]);
  return { token, userId, organizationId };
}

/** Resolves an `Authorization` header value to the caller, or throws UNAUTHENTICATED. */
export function authenticate(db: Db, authorization: string | undefined): Caller {
  if (!authorization) throw ApiError.unauthenticated('missing Authorization header (expected "Bearer <api key>")');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!m) throw ApiError.unauthenticated('malformed Authorization header (expected "Bearer <api key>")');
  const cached = cachedCaller(db, m[1]);
  if (cached) return cached;
  const row = db.get<{ user_id: string; owner: number }>(
    'SELECT user_id, owner FROM api_keys WHERE key_hash = ? AND revoked_date IS NULL',
    [hashKey(m[1])],
  );
  const loaded = row && loadCaller(db, row.user_id);
  if (!loaded) throw ApiError.unauthenticated('invalid API key');
  const caller = row.owner === 1 ? { ...loaded, owner: true } : loaded;
  rememberCaller(db, m[1], caller);
  return caller;
}

/** Where a host keeps a token it reuses (the data directory's 0600 secret file under `outpost serve`). */
export interface TokenStore {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
}

const OWNER_SESSION_SECRET = 'serve.owner-session-key';
const OWNER_SESSION_NAME = 'serve session';

/**
 * The data directory owner's session key for `outpost serve`: the one kept in `store` while it is still valid
 * (not revoked, its user still there), else a new one, kept there. One key per directory, not one per start.
 */
export async function ownerSessionKey(db: Db, store: TokenStore): Promise<string> {
  const kept = await store.get(OWNER_SESSION_SECRET);
  if (kept && db.get('SELECT 1 FROM api_keys WHERE key_hash = ? AND revoked_date IS NULL', [hashKey(kept)])) return kept;
  const { token } = createApiKey(db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME, OWNER_SESSION_NAME, { owner: true });
  await store.set(OWNER_SESSION_SECRET, token);
  return token;
}

/** The kept owner session key (for an `outpost sync` that hands its work to the running server), if any. */
export const keptOwnerSessionKey = (store: TokenStore) => store.get(OWNER_SESSION_SECRET);

export interface ApiKeyInfo {
  readonly id: string;
  readonly name: string;
  readonly owner: boolean;
  readonly userName: string;
  readonly createdDate: number;
  readonly revokedDate: number | null;
}

/** Every key of the directory (never the token: only its hash is stored), oldest first. */
export function listApiKeys(db: Db): ApiKeyInfo[] {
  return db
    .all<ApiKeyInfo>(
      `SELECT k.id, k.name, k.owner = 1 AS owner, u.user_name AS userName, k.created_date AS createdDate, k.revoked_date AS revokedDate
       FROM api_keys k JOIN users u ON u.id = k.user_id ORDER BY k.created_date, k.id`,
    )
    .map((k) => ({ ...k, owner: Boolean(k.owner) }));
}

/** Revokes the key with this id (or unique id prefix); returns it, or undefined when none or several match. */
export function revokeApiKey(db: Db, idOrPrefix: string): ApiKeyInfo | undefined {
  const matches = listApiKeys(db).filter((k) => k.id === idOrPrefix || (idOrPrefix.length >= 4 && k.id.startsWith(idOrPrefix)));
  if (matches.length !== 1) return undefined;
  db.run('UPDATE api_keys SET revoked_date = coalesce(revoked_date, ?) WHERE id = ?', [nowMicros(), matches[0].id]);
  return listApiKeys(db).find((k) => k.id === matches[0].id);
}
