// A realistic demo dataset with deterministic content, so a demo profile is
// alive and tests/benchmarks have known data. Its ids are fresh per data
// directory (derived from a salt the directory keeps), so two demo directories
// never share a record id; seeding the same directory twice changes nothing.
// Seeding marks the database a demo profile, which cannot be linked to a remote.
// Written with bulk SQL in one transaction.
import { createHash, randomUUID } from 'node:crypto';
import { ApiError, Code } from '../../src-shared/errors';
import { AnnotationState } from '../../src-shared/api/annotations';
import { AnnotationLogKind, AnnotationLogState } from '../../src-shared/api/annotationLogs';
import { ensureMember, DEFAULT_ORGANIZATION_NAME, DEFAULT_USER_NAME } from '../auth/identity';
import { beginBulkLoad, restoreIndexes } from '../db/bulkLoad';
import { withoutForeignKeyChecks, type Db } from '../db/database';
import { markDemoProfile } from '../db/demoProfile';
import { isReplica } from '../engine';
import { ANNOTATION_TABLES, withAnnotationBulkInserter } from '../services/annotations/annotationStore';
import { AnnotationLogRowWriter } from '../services/annotations/annotationLogStore';
import { insertAsset, insertChannel, insertRun, insertTag, replaceRunAssets } from '../services/reference/referenceStores';

/** mulberry32: a tiny seeded PRNG (determinism matters, quality does not). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A UUID-shaped id derived from a name and the directory's salt (stable within one data directory). */
function demoRecordId(name: string, salt: string): string {
  const h = createHash('sha256').update(`outpost-seed:${salt}:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const ASSETS = [
  'Falcon-7',
  'Falcon-9',
  'Kestrel-2',
  'Merlin-Test-Stand',
  'Raptor-Bench-A',
  'Raptor-Bench-B',
  'Osprey-UAV-3',
  'Harrier-Rover',
];
const CHANNELS = ['chamber.pressure', 'chamber.temperature', 'valve.position', 'battery.voltage', 'imu.accel_z', 'gps.altitude'];
const TAGS = [
  'anomaly',
  'sensor-fault',
  'expected',
  'needs-review',
  'thermal',
  'vibration',
  'pressure',
  'software',
  'hardware',
  'false-positive',
  'ignition',
  'shutdown',
];
const USERS = [
  DEFAULT_USER_NAME,
  'ana.ruiz@outpost.local',
  'kenji.sato@outpost.local',
  'maya.okafor@outpost.local',
  'lars.nilsen@outpost.local',
];
const NAMES = [
  'Pressure spike',
  'Temperature drift',
  'Valve chatter',
  'Voltage sag',
  'Unexpected vibration',
  'Sensor dropout',
  'Ignition delay',
  'Thrust oscillation',
  'GPS glitch',
  'Comms loss',
  'Overcurrent',
  'Slow valve response',
];
const COMMENTS = [
  'Looks like the known sensor issue.',
  'Checked against the previous run: same signature.',
  'Needs a second look after the hardware swap.',
  'Confirmed with the test conductor.',
  'Within limits after recalibration — résumé attached later.',
  'Ünïcödé note: Δp ≈ 3 psi 🚀',
];

export interface SeedCounts {
  users: number;
  assets: number;
  channels: number;
  runs: number;
  tags: number;
  annotations: number;
  annotationLogs: number;
}

const DAY = 86_400_000_000;
const BASE = Date.UTC(2026, 8, 1) * 1000; // 2026-09-01T00:00:00Z in microseconds

export interface SeedOptions {
  /** How many annotations (default 3000). */
  annotations?: number;
  /** Write the activity history logs (default true). */
  logs?: boolean;
  /** `random` ids let benchmarks measure realistic (random-order) index inserts. */
  ids?: 'stable' | 'random';
}

export function seedDemoData(db: Db, options: SeedOptions = {}): SeedCounts {
  // Demo records in a replica would never reach its remote (they bypass the outbox) yet sit among its records.
  if (isReplica(db))
    throw new ApiError(
      Code.FAILED_PRECONDITION,
      'this data directory is a replica of its remote: demo data is only for a local profile (use another --data)',
    );
  // Into an empty database, build the annotation indexes once at the end (one sort each). The unique id indexes
  // too: the ids one seed makes are distinct (stable per index, or random UUIDs), and a second seed, into filled
  // tables, keeps every index (its OR IGNORE needs them).
  const bulk = beginBulkLoad(db, [...ANNOTATION_TABLES, 'annotation_logs'], { deferUnique: true });
  let counts: SeedCounts;
  try {
    // During a bulk load the rows refer only to parents this transaction just wrote or found: no per-row probes (as a bulk pull).
    counts = bulk ? withoutForeignKeyChecks(db.raw, () => insertDemoData(db, options)) : insertDemoData(db, options);
  } finally {
    if (bulk) restoreIndexes(db);
  }
  db.optimize(); // a bulk load changes row counts by orders of magnitude: refresh planner statistics
  return counts;
}

function insertDemoData(db: Db, options: SeedOptions): SeedCounts {
  const total = options.annotations ?? 3000;
  const rand = prng(20260901);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  return db.tx(() => {
    const salt = markDemoProfile(db);
    const stableId = (name: string) => demoRecordId(name, salt);
    const { organizationId } = ensureMember(db, DEFAULT_USER_NAME, DEFAULT_ORGANIZATION_NAME);
    const userIds = USERS.map((u) => ensureMember(db, u, DEFAULT_ORGANIZATION_NAME).userId);
    const owner = userIds[0];
    for (const [i, name] of TAGS.entries()) {
      insertTag(
        db,
        { id: stableId(`tag:${name}`), organization_id: organizationId, name, created_by_user_id: owner, created_date: BASE + i },
        { ifAbsent: true },
      );
    }
    const assetIds = ASSETS.map((name, i) => {
      const id = stableId(`asset:${name}`);
      insertAsset(
        db,
        {
          id,
          organization_id: organizationId,
          name,
          created_date: BASE + i,
          created_by_user_id: owner,
          modified_date: BASE + i,
          modified_by_user_id: owner,
        },
        { ifAbsent: true },
      );
      return id;
    });
    const channelIds: string[] = [];
    for (const [a, assetId] of assetIds.entries()) {
      for (const name of CHANNELS) {
        const id = stableId(`channel:${ASSETS[a]}:${name}`);
        channelIds.push(id);
        insertChannel(
          db,
          {
            id,
            organization_id: organizationId,
            asset_id: assetId,
            name,
            description: `${name} of ${ASSETS[a]}`,
            created_date: BASE,
            created_by_user_id: owner,
            modified_date: BASE,
            modified_by_user_id: owner,
          },
          { ifAbsent: true },
        );
      }
    }
    const runIds: string[] = [];
    for (let r = 0; r < 30; r++) {
      const id = stableId(`run:${r}`);
      runIds.push(id);
      const start = BASE + r * 2 * DAY;
      const asset = assetIds[r % assetIds.length];
      const runPk = insertRun(
        db,
        {
          id,
          organization_id: organizationId,
          name: `${ASSETS[r % ASSETS.length]} run ${String(r + 1).padStart(3, '0')}`,
          description: 'Hot-fire test campaign',
          start_time: start,
          stop_time: start + 3_600_000_000,
          created_date: start,
          created_by_user_id: owner,
          modified_date: start,
          modified_by_user_id: owner,
        },
        { ifAbsent: true },
      );
      if (runPk !== undefined) replaceRunAssets(db, runPk, [asset]);
    }

    const logWriter = new AnnotationLogRowWriter(db);
    const insertLog = (
      ...v: [
        string,
        number,
        string,
        string,
        number,
        string,
        string,
        number,
        number,
        string | null,
        string | null,
        number | null,
        string | null,
      ]
    ) =>
      logWriter.insert({
        id: v[0],
        annotation_pk: v[1],
        annotation_id: v[2],
        organization_id: v[3],
        kind: v[4],
        created_by_user_id: v[5],
        created_by_user_name: v[6],
        created_date: v[7],
        modified_date: v[8],
        assigned_to_user_id: v[9],
        assigned_to_user_email: v[10],
        state: v[11],
        comment_body: v[12],
      });
    let annotations = 0;
    let logs = 0;
    withAnnotationBulkInserter(db, (insertAnnotation) => {
      for (let i = 0; i < total; i++) {
        const runIndex = Math.floor(rand() * runIds.length);
        const runStart = BASE + runIndex * 2 * DAY;
        const start = runStart + Math.floor(rand() * 3_000_000_000);
        const end = start + Math.floor(rand() * 120_000_000);
        const created = runStart + 3_600_000_000 + Math.floor(rand() * DAY);
        const phase = rand() < 0.1;
        const state = phase ? null : pick([1, 1, 1, 2, 2, 3]);
        const authorIndex = Math.floor(rand() * userIds.length);
        const assignee = rand() < 0.6 ? userIds[Math.floor(rand() * userIds.length)] : '';
        const id = options.ids === 'random' ? randomUUID() : stableId(`annotation:${i}`);
        const tagCount = Math.floor(rand() * 3);
        const tags = new Set<string>();
        for (let t = 0; t < tagCount; t++) tags.add(pick(TAGS));
        const metadata: [string, number, string | null, number | null, number | null][] = [
          ['severity', 2, null, 1 + Math.floor(rand() * 5), null],
          ['subsystem', 1, pick(['propulsion', 'avionics', 'power', 'structures']), null, null],
        ];
        if (rand() < 0.3) metadata.push(['reviewed', 3, null, null, rand() < 0.5 ? 1 : 0]);
        const description = rand() < 0.7 ? `Observed on ${CHANNELS[i % CHANNELS.length]} during the test.` : '';
        const pk = insertAnnotation({
          id,
          organizationId,
          name: `${pick(NAMES)} #${i + 1}`,
          description,
          startTime: start,
          endTime: end,
          createdByUserId: userIds[authorIndex],
          createdDate: created,
          runId: runIds[runIndex],
          state,
          assignedToUserId: assignee,
          annotationType: phase ? 2 : 1,
          archivedDate: rand() < 0.05 ? created + DAY : null,
          tags: [...tags],
          assetIds: [assetIds[runIndex % assetIds.length]],
          channelIds: [channelIds[(runIndex % assetIds.length) * CHANNELS.length + (i % CHANNELS.length)]],
          metadata,
        });
        if (pk === undefined) continue;
        annotations++;
        if (options.logs === false) continue;
        const author = USERS[authorIndex];
        insertLog(
          stableId(`log:${i}:created`),
          pk,
          id,
          organizationId,
          AnnotationLogKind.numbers.ANNOTATION_LOG_KIND_STATE_UPDATE,
          userIds[authorIndex],
          author,
          created,
          created,
          null,
          null,
          AnnotationLogState.numbers.ANNOTATION_LOG_STATE_CREATED,
          null,
        );
        logs++;
        if (assignee) {
          insertLog(
            stableId(`log:${i}:assigned`),
            pk,
            id,
            organizationId,
            AnnotationLogKind.numbers.ANNOTATION_LOG_KIND_ASSIGNED,
            userIds[authorIndex],
            author,
            created + 1,
            created + 1,
            assignee,
            USERS[userIds.indexOf(assignee)],
            null,
            null,
          );
          logs++;
        }
        if (state !== null && state !== AnnotationState.numbers.ANNOTATION_STATE_OPEN) {
          insertLog(
            stableId(`log:${i}:state`),
            pk,
            id,
            organizationId,
            AnnotationLogKind.numbers.ANNOTATION_LOG_KIND_STATE_UPDATE,
            userIds[authorIndex],
            author,
            created + 2,
            created + 2,
            null,
            null,
            state + 1,
            null,
          );
          logs++;
        }
        if (rand() < 0.4) {
          const body = [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text: pick(COMMENTS), userMention: null }];
          insertLog(
            stableId(`log:${i}:comment`),
            pk,
            id,
            organizationId,
            AnnotationLogKind.numbers.ANNOTATION_LOG_KIND_COMMENT,
            userIds[authorIndex],
            author,
            created + 3,
            created + 3,
            null,
            null,
            null,
            JSON.stringify(body),
          );
          logs++;
        }
      }
    });
    return {
      users: USERS.length,
      assets: ASSETS.length,
      channels: channelIds.length,
      runs: runIds.length,
      tags: TAGS.length,
      annotations,
      annotationLogs: logs,
    };
  });
}
