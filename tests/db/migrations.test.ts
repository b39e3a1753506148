// Migrations are numbered, forward-only, run at open, and upgrade a database
// left at every earlier version (with data in it) to the latest schema.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../src-main/db/migrations/index';
import { openDatabase, schemaVersion } from '../../src-main/db/database';
import { seedDemoData } from '../../src-main/seed/seedDemoData';
import { beginBulkLoad } from '../../src-main/db/bulkLoad';
import { loadSteps } from '../../src-main/services/testReports/testReportRows';
import { DEFAULT_POLICY_NAME, defaultPolicyRecord, defaultPolicyText } from '../../src-main/auth/defaultPolicy';
import { ensureOrganization } from '../../src-main/auth/identity';

const dirs: string[] = [];
const tempFile = () => {
  const d = mkdtempSync(join(tmpdir(), 'outpost-mig-'));
  dirs.push(d);
  return join(d, 'outpost.sqlite');
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const latest = migrations[migrations.length - 1].version;
/** What openEngine passes the migrations (the database layer imports no layer above it). */
const withDefaultPolicy = { migrationData: { defaultPolicy: defaultPolicyRecord } };

/** Table name -> CREATE statement, for comparing schemas. */
function schemaOf(file: string): Record<string, string> {
  const raw = new BetterSqlite3(file, { readonly: true });
  const rows = raw
    .prepare("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string; sql: string }[];
  raw.close();
  return Object.fromEntries(rows.map((r) => [r.name, r.sql]));
}

describe('migrations', () => {
  it('are numbered 1..N without gaps, matching their file names', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
    const files = readdirSync(join(__dirname, '../../src-main/db/migrations'))
      .filter((f) => /^\d{4}-.*\.ts$/.test(f))
      .sort();
    expect(files.map((f) => Number(f.slice(0, 4)))).toEqual(migrations.map((m) => m.version));
  });

  it.each(migrations.map((m) => m.version))('upgrade a database left at version %i (with data) to the latest schema', (from) => {
    const file = tempFile();
    const db = openDatabase(file, { migrateTo: from });
    expect(schemaVersion(db.raw)).toBe(from);
    seedDemoData(db, { annotations: 50 }); // every version since 1 has the core tables
    // Table rebuilds (0009) must not cascade to child rows: every count survives the upgrade.
    const tables = [
      'annotations',
      'annotation_tags',
      'annotation_assets',
      'annotation_linked_channels',
      'annotation_metadata',
      'annotation_logs',
    ];
    const counts = (d: typeof db) => tables.map((t) => d.get<{ n: number }>(`SELECT count(*) AS n FROM ${t}`)!.n);
    const before = counts(db);
    expect(before.every((n) => n > 0)).toBe(true);
    db.close();
    const upgraded = openDatabase(file, withDefaultPolicy);
    expect(schemaVersion(upgraded.raw)).toBe(latest);
    expect(upgraded.get<{ n: number }>('SELECT count(*) AS n FROM annotations')!.n).toBe(50);
    expect(counts(upgraded)).toEqual(before);
    expect(upgraded.raw.pragma('foreign_key_check')).toEqual([]);
    upgraded.close();
    const fresh = tempFile();
    openDatabase(fresh).close();
    expect(schemaOf(file)).toEqual(schemaOf(fresh));
  });

  it('0011 gives template items stored without a kind the unknown kind, an empty string', () => {
    const file = tempFile();
    const db = openDatabase(file, { migrateTo: 10 });
    seedDemoData(db, { annotations: 1 });
    const org = db.get<{ id: string }>('SELECT id FROM organizations LIMIT 1')!.id;
    const user = db.get<{ id: string }>('SELECT id FROM users LIMIT 1')!.id;
    const doc = { overviewMode: 'runs', templateItems: [{ id: 't1', name: 'Tmpl' }], assetItems: [{ id: 'a', name: 'A' }] };
    db.run(
      `INSERT INTO saved_searches(id, organization_id, name, properties, created_by_user_id, modified_by_user_id, created_date, modified_date)
       VALUES ('5e5e5e5e-0000-4000-a000-000000000001', ?, 'old', ?, ?, ?, 1, 1)`,
      [org, JSON.stringify(doc), user, user],
    );
    db.close();
    const upgraded = openDatabase(file, withDefaultPolicy);
    const stored = JSON.parse(upgraded.get<{ properties: string }>('SELECT properties FROM saved_searches')!.properties);
    expect(stored).toEqual({ ...doc, templateItems: [{ id: 't1', name: 'Tmpl', kind: '' }] });
    upgraded.close();
  });

  // Every version since 4 (which created test_steps) stored step paths as text: 0013 keeps each path (read back
  // decoded from the compact key), the natural order, the filter on step_path, and a bulk load's deferred indexes.
  it.each(migrations.map((m) => m.version).filter((v) => v >= 4 && v < 13))(
    '0013 turns the text step paths of version %i into keys, keeping every path and the order',
    (from) => {
      const file = tempFile();
      const db = openDatabase(file, { migrateTo: from });
      seedDemoData(db, { annotations: 1 });
      const org = db.get<{ id: string }>('SELECT id FROM organizations LIMIT 1')!.id;
      const user = db.get<{ id: string }>('SELECT id FROM users LIMIT 1')!.id;
      db.run(
        `INSERT INTO test_reports(pk, id, organization_id, status, name, test_system_name, test_case, start_time, end_time, created_by_user_id, modified_by_user_id, created_date, modified_date)
       VALUES (1, 'r1', ?, 1, 'r', 's', 'c', 1, 2, ?, ?, 1, 1)`,
        [org, user, user],
      );
      const paths = ['1.10', '1', '1.9', '1.1.1', '2', '1.01', 'a.b', '1.1', '300.70000'];
      paths.forEach((p, i) =>
        db.run(
          `INSERT INTO test_steps(id, report_pk, test_report_id, organization_id, name, step_type, step_path, step_path_key, status, start_time, end_time,
           created_by_user_id, modified_by_user_id, created_date, modified_date) VALUES (?, 1, 'r1', ?, ?, 1, ?, 'ignored', 1, 1, 2, ?, ?, 1, 1)`,
          [`s${i}`, org, `step ${i}`, p, user, user],
        ),
      );
      db.close();
      const upgraded = openDatabase(file, withDefaultPolicy);
      const ordered = upgraded.all<{ id: string; pk: number }>(
        "SELECT id, pk FROM test_steps WHERE test_report_id = 'r1' ORDER BY path_key, pk",
      );
      expect(
        loadSteps(
          upgraded,
          ordered.map((r) => r.pk),
        ).map((s) => s.stepPath),
      ).toEqual(['1', '1.1', '1.01', '1.1.1', '1.9', '1.10', '2', '300.70000', 'a.b']);
      expect(upgraded.all("SELECT id FROM test_steps WHERE step_path_text(path_key) = '1.01'")).toEqual([{ id: 's5' }]);
      expect(upgraded.all("SELECT name FROM sqlite_master WHERE name LIKE 'test_steps_%path' ORDER BY name")).toEqual([
        { name: 'test_steps_org_path' },
        { name: 'test_steps_report_path' },
      ]);
      upgraded.close();
    },
  );

  it('0013 rewrites the step path indexes an interrupted bulk load left deferred, so the repair at open builds the new ones', () => {
    const file = tempFile();
    const db = openDatabase(file, { migrateTo: 12 });
    expect(beginBulkLoad(db, ['test_steps'])).toBe(true);
    db.close();
    const upgraded = openDatabase(file, withDefaultPolicy);
    expect(upgraded.setting('sync.deferred_indexes')).toBeUndefined();
    expect(upgraded.get<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'test_steps_org_path'")!.sql).toContain('path_key');
    upgraded.close();
  });

  it.each(migrations.map((m) => m.version).filter((v) => v < 15))(
    '0015 gives every organization of a version %i database the default policy (members may do everything)',
    (from) => {
      const file = tempFile();
      const db = openDatabase(file, { migrateTo: from });
      seedDemoData(db, { annotations: 1 });
      const second = ensureOrganization(db, 'Second Org');
      const orgs = db.all<{ id: string }>('SELECT id FROM organizations ORDER BY id').map((o) => o.id);
      expect(orgs).toContain(second);
      // Policies exist since version 3; before 0015 an organization is created without one.
      if (from >= 3) expect(db.get<{ n: number }>('SELECT count(*) AS n FROM policies')!.n).toBe(0);
      db.close();
      const upgraded = openDatabase(file, withDefaultPolicy);
      const policies = upgraded.all<{ organization_id: string; name: string; cedar_policy: string; version: number; pk: number }>(
        'SELECT organization_id, name, cedar_policy, version, pk FROM policies ORDER BY organization_id',
      );
      expect(policies.map((p) => p.organization_id)).toEqual(orgs);
      for (const p of policies) {
        expect(p).toMatchObject({ name: DEFAULT_POLICY_NAME, cedar_policy: defaultPolicyText(p.organization_id), version: 1 });
        expect(
          upgraded.get<{ cedar_policy: string }>('SELECT cedar_policy FROM policy_versions WHERE policy_pk = ? AND version = 1', [p.pk])!
            .cedar_policy,
        ).toBe(p.cedar_policy);
      }
      // A new organization after the upgrade gets it at creation.
      const third = ensureOrganization(upgraded, 'Third Org');
      expect(upgraded.all('SELECT name FROM policies WHERE organization_id = ?', [third])).toEqual([{ name: DEFAULT_POLICY_NAME }]);
      upgraded.close();
    },
  );

  it('0015 meeting organizations without the default policy passed in stops, naming what is missing, and changes nothing', () => {
    const file = tempFile();
    const db = openDatabase(file, { migrateTo: 14 });
    ensureOrganization(db, 'Some Org');
    db.close();
    expect(() => openDatabase(file)).toThrow(/migration 0015 gives every organization the default policy/);
    const raw = new BetterSqlite3(file);
    expect(schemaVersion(raw)).toBe(14);
    raw.close();
  });

  it('refuses a database from a newer Outpost instead of damaging it', () => {
    const file = tempFile();
    openDatabase(file).close();
    const raw = new BetterSqlite3(file);
    raw.pragma(`user_version = ${latest + 1}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(/newer than this Outpost/);
  });

  it('opens in WAL mode with foreign keys on', () => {
    const db = openDatabase(tempFile());
    expect(db.raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.raw.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });
});
