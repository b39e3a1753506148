// API keys: random bearer tokens, stored only as SHA-256 hashes.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ApiError } from '../../src-shared/errors';
import { nowMicros } from '../../src-shared/api/time';
import type { Db } from '../db/database';
import type { Caller } from './caller';
import { cachedCaller, rememberCaller } from './callerCache';
import { ensureMember, loadCaller } from './identity';

const hashKey = (token: string) => createHash('sha256').update(token).digest('hex');

export function createApiKey(db: Db, userName: string, organizationName: string, name = ''): { token: string; userId: string; organizationId: string } {
  const { userId, organizationId } = ensureMember(db, userName, organizationName);
  const token = `op_${randomBytes(32).toString('base64url')}`;
  db.run('INSERT INTO api_keys(id, key_hash, user_id, name, created_date) VALUES (?, ?, ?, ?, ?)', [
    randomUUID(), hashKey(token), userId, name, nowMicros(),
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
  const row = db.get<{ user_id: string }>('SELECT user_id FROM api_keys WHERE key_hash = ? AND revoked_date IS NULL', [hashKey(m[1])]);
  const caller = row && loadCaller(db, row.user_id);
  if (!caller) throw ApiError.unauthenticated('invalid API key');
  rememberCaller(db, m[1], caller);
  return caller;
}
