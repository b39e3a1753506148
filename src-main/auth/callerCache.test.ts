import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openDatabase, type Db } from '../db/database';
import { authenticate, createApiKey } from './apiKeys';
import { ensureMember } from './identity';

let dir: string;
let db: Db;
let other: Db;
let header: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'outpost-caller-cache-'));
  db = openDatabase(join(dir, 'outpost.sqlite'));
  other = openDatabase(join(dir, 'outpost.sqlite'));
  header = `Bearer ${createApiKey(db, 'reviewer@example.com', 'Org A').token}`;
});
afterEach(() => {
  db.close();
  other.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a cached caller follows membership changes made on the same connection', () => {
  expect(authenticate(db, header).organizations.map((o) => o.name)).toEqual(['Org A']);
  ensureMember(db, 'reviewer@example.com', 'Org B');
  expect(authenticate(db, header).organizations.map((o) => o.name)).toEqual(['Org A', 'Org B']);
});

test('a key revoked on this connection or by another process stops working at once', () => {
  expect(authenticate(db, header).userName).toBe('reviewer@example.com');
  other.run('UPDATE api_keys SET revoked_date = 1');
  expect(() => authenticate(db, header)).toThrow(/invalid API key/);
  other.run('UPDATE api_keys SET revoked_date = NULL');
  expect(authenticate(db, header).userName).toBe('reviewer@example.com');
  db.run('UPDATE api_keys SET revoked_date = 1');
  expect(() => authenticate(db, header)).toThrow(/invalid API key/);
});
