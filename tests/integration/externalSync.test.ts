// ExternalSyncService (settings + SCIM tokens) over real HTTP, and the token
// verification helper (hash-only storage, lifetime, superseding).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src-shared/errors';
import { DEFAULT_TOKEN_LIFETIME_SECONDS, verifyExternalSyncToken } from '../../src-main/services/externalSync/externalSyncService';
import { startTestServer, type TestServer } from '../support/testServer';
import { violationOf as violation, UUID, RFC3339 as TS } from '../support/assertions';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const NINETY_DAYS = 90 * 24 * 60 * 60;

/** A fresh organization (own server) so token history starts empty. */
async function withServer(fn: (s: TestServer) => Promise<void>): Promise<void> {
  const s = await startTestServer();
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

describe('GetExternalSync', () => {
  it('before any token: success, the SCIM URL, the default lifetime, optional fields omitted', async () => {
    await withServer(async (s) => {
      const res = await s.api('GET', '/api/v1/external-sync');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['success', 'externalSync']);
      const orgId = res.body.externalSync.organizationId;
      expect(orgId).toMatch(UUID);
      expect(res.body).toEqual({
        success: true,
        externalSync: {
          organizationId: orgId,
          scimServerUrl: `http://127.0.0.1/scim/v2/${orgId}`,
          tokenLifetimeSeconds: NINETY_DAYS,
          realm: '',
          client: '',
        },
      });
      expect(DEFAULT_TOKEN_LIFETIME_SECONDS).toBe(NINETY_DAYS);
    });
  });

  it('after a token: its creation date, lifetime and creator, never the token', async () => {
    await withServer(async (s) => {
      const generated = await s.api('POST', '/api/v1/external-sync:generate-token', {});
      const res = await s.api('GET', '/api/v1/external-sync');
      expect(res.body.externalSync).toEqual(generated.body.externalSync);
      expect(JSON.stringify(res.body)).not.toContain(generated.body.token);
      expect(Object.keys(res.body.externalSync)).toEqual([
        'organizationId',
        'scimServerUrl',
        'tokenCreatedDate',
        'tokenLifetimeSeconds',
        'mostRecentTokenByUserId',
        'realm',
        'client',
      ]);
    });
  });

  it('is per organization', async () => {
    const other = server.newToken('x@y', 'Other Org');
    const mine = await server.api('GET', '/api/v1/external-sync');
    const theirs = await server.api('GET', '/api/v1/external-sync', undefined, other);
    expect(theirs.body.externalSync.organizationId).not.toBe(mine.body.externalSync.organizationId);
    expect(theirs.body.externalSync.scimServerUrl).toContain(theirs.body.externalSync.organizationId);
  });

  it('asks a caller in several organizations which one, and rejects one they are not in', async () => {
    const multi = server.newToken('multi@outpost.local');
    server.newToken('multi@outpost.local', 'Second Org');
    expect(violation(await server.api('GET', '/api/v1/external-sync', undefined, multi)).field).toBe('organization_id');
    const orgId = (await server.api('GET', '/api/v1/external-sync')).body.externalSync.organizationId;
    const chosen = await server.api('GET', `/api/v1/external-sync?organization_id=${orgId}`, undefined, multi);
    expect(chosen.body.externalSync.organizationId).toBe(orgId);
    expect((await server.api('GET', '/api/v1/external-sync?organization_id=nope', undefined, multi)).status).toBe(404);
  });

  it('requires an API key', async () => {
    expect((await server.api('GET', '/api/v1/external-sync', undefined, null)).status).toBe(401);
  });
});

describe('GenerateToken', () => {
  it('returns {externalSync, token} once and stores only the SHA-256 hash', async () => {
    const res = await server.api('POST', '/api/v1/external-sync:generate-token', {});
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['externalSync', 'token']);
    const { externalSync, token } = res.body;
    expect(token).toMatch(/^opscim_[A-Za-z0-9_-]{43}$/);
    expect(externalSync).toEqual({
      organizationId: expect.stringMatching(UUID),
      scimServerUrl: `http://127.0.0.1/scim/v2/${externalSync.organizationId}`,
      tokenCreatedDate: expect.stringMatching(TS),
      tokenLifetimeSeconds: NINETY_DAYS,
      mostRecentTokenByUserId: expect.stringMatching(UUID),
      realm: '',
      client: '',
    });
    const rows = server.engine.db.all<Record<string, unknown>>('SELECT * FROM external_sync_tokens');
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.map((r) => r.token_hash)).toContain(createHash('sha256').update(token).digest('hex'));
  });

  it('accepts an empty body and ignores unknown keys', async () => {
    const empty = await server.api('POST', '/api/v1/external-sync:generate-token');
    expect(empty.status).toBe(200);
    const extra = await server.api('POST', '/api/v1/external-sync:generate-token', { lifetime_seconds: 5 });
    expect(extra.body.externalSync.tokenLifetimeSeconds).toBe(NINETY_DAYS);
  });

  it('rejects a malformed body', async () => {
    expect(violation(await server.api('POST', '/api/v1/external-sync:generate-token', '{oops')).field).toBe('body');
  });

  it('generates distinct tokens and reports the newest', async () => {
    const teammate = server.newToken('teammate@outpost.local');
    const a = await server.api('POST', '/api/v1/external-sync:generate-token', {});
    const b = await server.api('POST', '/api/v1/external-sync:generate-token', {}, teammate);
    expect(a.body.token).not.toBe(b.body.token);
    expect(b.body.externalSync.mostRecentTokenByUserId).not.toBe(a.body.externalSync.mostRecentTokenByUserId);
    expect(Date.parse(b.body.externalSync.tokenCreatedDate)).toBeGreaterThanOrEqual(Date.parse(a.body.externalSync.tokenCreatedDate));
    const got = await server.api('GET', '/api/v1/external-sync');
    expect(got.body.externalSync).toEqual(b.body.externalSync);
  });
});

describe('verifyExternalSyncToken', () => {
  it('accepts the newest token within its lifetime and rejects expired, superseded and unknown tokens', async () => {
    await withServer(async (s) => {
      const first = (await s.api('POST', '/api/v1/external-sync:generate-token', {})).body;
      const db = s.engine.db;
      const ok = verifyExternalSyncToken(db, first.token);
      expect(ok).toEqual({
        tokenId: expect.stringMatching(UUID),
        organizationId: first.externalSync.organizationId,
        expiresDate: expect.any(Number),
      });
      const created = Date.parse(first.externalSync.tokenCreatedDate) * 1000;
      expect(ok.expiresDate - created).toBeGreaterThanOrEqual(NINETY_DAYS * 1_000_000);
      expect(ok.expiresDate - created).toBeLessThan(NINETY_DAYS * 1_000_000 + 1000);

      // Just before / at the end of its lifetime.
      expect(verifyExternalSyncToken(db, first.token, ok.expiresDate - 1).tokenId).toBe(ok.tokenId);
      const expired = (() => {
        try {
          verifyExternalSyncToken(db, first.token, ok.expiresDate);
        } catch (e) {
          return e;
        }
      })();
      expect(expired).toBeInstanceOf(ApiError);
      expect((expired as ApiError).code).toBe(16);
      expect((expired as ApiError).message).toMatch(/expired at \d{4}-\d{2}-\d{2}T/);

      const second = (await s.api('POST', '/api/v1/external-sync:generate-token', {})).body;
      expect(() => verifyExternalSyncToken(db, first.token)).toThrowError(/superseded/);
      expect(verifyExternalSyncToken(db, second.token).organizationId).toBe(first.externalSync.organizationId);
      expect(() => verifyExternalSyncToken(db, second.token + 'x')).toThrowError(/invalid external sync token/);
      expect(() => verifyExternalSyncToken(db, '')).toThrowError(/invalid external sync token/);
    });
  });

  it("keeps organizations apart: a new token in one organization does not supersede another's", async () => {
    await withServer(async (s) => {
      const mine = (await s.api('POST', '/api/v1/external-sync:generate-token', {})).body;
      const theirs = (await s.api('POST', '/api/v1/external-sync:generate-token', {}, s.newToken('x@y', 'Other Org'))).body;
      expect(verifyExternalSyncToken(s.engine.db, mine.token).organizationId).toBe(mine.externalSync.organizationId);
      expect(verifyExternalSyncToken(s.engine.db, theirs.token).organizationId).toBe(theirs.externalSync.organizationId);
    });
  });
});

describe('ListExternalSyncTokens', () => {
  it('lists every token newest first without values, paging with tokens', async () => {
    await withServer(async (s) => {
      const empty = await s.api('GET', '/api/v1/external-sync:list-tokens');
      expect(empty.body).toEqual({ externalSyncTokens: [], nextPageToken: '' });

      const secrets: string[] = [];
      for (let i = 0; i < 5; i++) secrets.push((await s.api('POST', '/api/v1/external-sync:generate-token', {})).body.token);
      await s.api('POST', '/api/v1/external-sync:generate-token', {}, s.newToken('x@y', 'Other Org'));

      const res = await s.api('GET', '/api/v1/external-sync:list-tokens');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['externalSyncTokens', 'nextPageToken']);
      expect(res.body.nextPageToken).toBe('');
      const list = res.body.externalSyncTokens;
      expect(list).toHaveLength(5);
      for (const t of list) {
        expect(t).toEqual({
          tokenId: expect.stringMatching(UUID),
          lifetimeSeconds: NINETY_DAYS,
          createdDate: expect.stringMatching(TS),
          createdByUserId: expect.stringMatching(UUID),
        });
      }
      const dates = list.map((t: any) => Date.parse(t.createdDate));
      expect([...dates].sort((a, b) => b - a)).toEqual(dates);
      for (const secret of secrets) expect(JSON.stringify(res.body)).not.toContain(secret);
      // The newest listed token is the one verification accepts.
      expect(verifyExternalSyncToken(s.engine.db, secrets[4]).tokenId).toBe(list[0].tokenId);

      const ids: string[] = [];
      let pageToken = '';
      let pages = 0;
      do {
        const page = await s.client.ListExternalSyncTokens({ pageSize: 2, pageToken });
        ids.push(...page.externalSyncTokens.map((t) => t.tokenId));
        pageToken = page.nextPageToken;
        pages++;
      } while (pageToken);
      expect(pages).toBe(3);
      expect(ids).toEqual(list.map((t: any) => t.tokenId));

      const oldestFirst = await s.api('GET', '/api/v1/external-sync:list-tokens?order_by=created_date');
      expect(oldestFirst.body.externalSyncTokens.map((t: any) => t.tokenId)).toEqual([...ids].reverse());
    });
  });

  it('rejects unknown order_by fields and mismatched page tokens', async () => {
    expect(violation(await server.api('GET', '/api/v1/external-sync:list-tokens?order_by=token_id')).field).toBe('order_by');
    await server.api('POST', '/api/v1/external-sync:generate-token', {});
    await server.api('POST', '/api/v1/external-sync:generate-token', {});
    const first = await server.api('GET', '/api/v1/external-sync:list-tokens?page_size=1');
    expect(first.body.nextPageToken).not.toBe('');
    const mismatch = await server.api(
      'GET',
      `/api/v1/external-sync:list-tokens?page_size=1&order_by=created_date&page_token=${encodeURIComponent(first.body.nextPageToken)}`,
    );
    expect(violation(mismatch).field).toBe('page_token');
  });
});
