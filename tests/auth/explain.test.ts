// explainDecision ("try it") decides as the write path does: over a real SQLite file (the demo dataset), for every
// annotation, several actions and two users, its allow or deny equals authorizeOperation's (whose shortcuts, the
// partial evaluation and the residuals compiled to SQL, never name statements); and on a sync replica an
// organization none of whose policies has been pulled is left to the remote, as the write path leaves it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src-shared/errors';
import { openDatabase, type Db } from '../../src-main/db/database';
import { seedDemoData } from '../../src-main/seed/seedDemoData';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME, ensureMember, loadCaller } from '../../src-main/auth/identity';
import type { Caller } from '../../src-main/auth/caller';
import { CEDAR_ACTIONS } from '../../src-main/auth/cedar/actions';
import { authorizeOperation } from '../../src-main/auth/cedar/authorize';
import { explainDecision } from '../../src-main/auth/cedar/explain';
import { recordPks } from '../../src-main/auth/cedar/entities';
import { recordTypeNamed } from '../../src-main/auth/cedar/recordTypes';

const annotation = recordTypeNamed('Annotation')!;
const ACTIONS = ['GetAnnotation', 'UpdateAnnotation', 'ArchiveAnnotation', 'CreateAnnotationLog'];
let dir: string;
let db: Db;
let organizationId: string;
let me: Caller;
let ana: Caller;
let tag: string;

function addPolicy(name: string, text: string): void {
  const now = Date.now() * 1000;
  db.run(
    `INSERT INTO policies(id, organization_id, name, cedar_policy, policy_version_id, version, created_by_user_id, modified_by_user_id, created_date, modified_date)
     VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
    [`p-${name}`, organizationId, name, text, `v-${name}`, me.userId, me.userId, now, now],
  );
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'outpost-explain-'));
  db = openDatabase(join(dir, 'outpost.sqlite'));
  const member = ensureMember(db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME);
  organizationId = member.organizationId;
  seedDemoData(db, { annotations: 60 });
  me = loadCaller(db, member.userId)!;
  ana = loadCaller(db, db.get<{ id: string }>("SELECT id FROM users WHERE user_name = 'ana.ruiz@outpost.local'")!.id)!;
  tag = db.get<{ tag_name: string }>('SELECT tag_name FROM annotation_tags GROUP BY tag_name ORDER BY count(*) DESC LIMIT 1')!.tag_name;
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the write path decides: allowed when authorizeOperation does not refuse. */
function writePathAllows(caller: Caller, name: string, annotationId: string): boolean {
  try {
    authorizeOperation({ db, caller, replica: false }, name, { annotationId });
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.code === 7) return false;
    throw e;
  }
}

describe('explainDecision', () => {
  it('allows and denies exactly as the write path, for every annotation, action and user', () => {
    addPolicy(
      'Tagged are the creator’s to archive',
      `forbid(principal, action in Action::"archive", resource is Annotation) when { resource.tags.contains("${tag}") } unless { resource.creator == principal };`,
    );
    addPolicy(
      'Ana reads only what she is assigned',
      'forbid(principal, action in Action::"read", resource is Annotation) when { principal.name == "ana.ruiz@outpost.local" } unless { resource has assignee && resource.assignee == principal };',
    );
    const ids = db.all<{ id: string }>('SELECT id FROM annotations ORDER BY pk').map((r) => r.id);
    const records = recordPks(db, annotation, ids, [organizationId]);
    expect(records).toHaveLength(60);
    const seen = new Set<string>();
    for (const caller of [me, ana])
      for (const name of ACTIONS)
        for (const record of records) {
          const explained = explainDecision({ db, caller, replica: false }, CEDAR_ACTIONS.get(name)!, { type: annotation, record });
          expect(explained.allowed, `${caller.userName} ${name} ${record.id}`).toBe(writePathAllows(caller, name, record.id));
          // A denial names the forbid that decided; an allow the permit.
          const deciding = explained.checks.find((c) => !c.allowed) ?? explained.checks[0];
          expect(deciding.decidedBy.length, `${name} ${record.id}`).toBeGreaterThan(0);
          seen.add(`${name} ${explained.allowed}`);
        }
    // Both answers came up for each action (the dataset exercises both branches).
    for (const name of ACTIONS) expect([...seen]).toEqual(expect.arrayContaining([`${name} true`, `${name} false`]));
  });

  it('on a replica, an organization with no active policy is left to the remote; elsewhere it is denied by default', () => {
    db.run('UPDATE policies SET archived_date = 1 WHERE organization_id = ?', [organizationId]);
    const [record] = recordPks(db, annotation, [db.get<{ id: string }>('SELECT id FROM annotations LIMIT 1')!.id], [organizationId]);
    const archive = CEDAR_ACTIONS.get('ArchiveAnnotation')!;
    const onReplica = explainDecision({ db, caller: ana, replica: true }, archive, { type: annotation, record });
    expect(onReplica).toMatchObject({ allowed: true, leftToRemote: true });
    expect(onReplica.checks.map((c) => c.action.name)).toEqual(['ArchiveAnnotation', 'GetAnnotation']);
    expect(() => authorizeOperation({ db, caller: ana, replica: true }, 'ArchiveAnnotation', { annotationId: record.id })).not.toThrow();
    const here = explainDecision({ db, caller: ana, replica: false }, archive, { organizationId });
    expect(here).toMatchObject({ allowed: false, leftToRemote: false });
    expect(here.checks).toEqual([{ action: archive, allowed: false, decidedBy: [], errors: [] }]);
  });
});
