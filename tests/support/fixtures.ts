// Test factories: reference entities written straight into a test server's
// database (the tests of the reference API itself create them over HTTP).
import { randomUUID } from 'node:crypto';
import { ensureMember, DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from '../../src-main/auth/identity';
import type { TestServer } from './testServer';

export interface Fixtures {
  organizationId: string;
  userId: string;
  otherUserId: string;
  assetId: string;
  assetName: string;
  runId: string;
  channelId: string;
}

export function createFixtures(s: TestServer, organizationName = DEFAULT_ORGANIZATION_NAME): Fixtures {
  const db = s.engine.db;
  const { userId, organizationId } = ensureMember(db, DEFAULT_USER_NAME, organizationName);
  const otherUserId = ensureMember(db, 'other@outpost.local', organizationName).userId;
  const assetId = randomUUID();
  const assetName = `Asset ${assetId.slice(0, 8)}`;
  db.run(
    'INSERT INTO assets(id, organization_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id) VALUES (?, ?, ?, 0, ?, 0, ?)',
    [assetId, organizationId, assetName, userId, userId],
  );
  const runId = randomUUID();
  db.run(
    'INSERT INTO runs(id, organization_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id) VALUES (?, ?, ?, 0, ?, 0, ?)',
    [runId, organizationId, 'Run 1', userId, userId],
  );
  const channelId = randomUUID();
  db.run(
    'INSERT INTO channels(id, organization_id, asset_id, name, created_date, created_by_user_id, modified_date, modified_by_user_id) VALUES (?, ?, ?, ?, 0, ?, 0, ?)',
    [channelId, organizationId, assetId, 'chamber.pressure', userId, userId],
  );
  return { organizationId, userId, otherUserId, assetId, assetName, runId, channelId };
}
