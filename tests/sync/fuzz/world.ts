// A seeded, model-based sync fuzzer (Joplin / Jepsen style). One remote behind
// a fault-injecting proxy, several replicas with their own users; random
// offline edits, random faults and partitions, edits made directly on the
// remote by an online colleague, and syncs, some of them run as a child
// `outpost sync` process that is SIGKILLed mid-run and followed by another.
// The records: annotations and comments (here), artifacts (./artifacts.ts),
// test reports (./testReports.ts), saved searches (./savedSearches.ts) and
// policies (./policies.ts). Some offline annotations are ones the
// remote refuses (named `x:…`); the user later either corrects one and
// retries it (it lands, with the edits that waited on it) or discards it
// (it and they are gone here, and never reach the remote); some renames are
// refused too, and set aside (every copy shows the remote's name again), and
// some comments, given up.
// Now and then the user undoes a logged field conflict: the losing value is
// written again, an edit like any other. An edit of a record deleted on the
// remote meanwhile (a saved search) must leave a conflict saying so; the user
// sets the edit aside and dismisses the conflict.
// After healing and final syncs the checker demands:
//   - convergence: every replica holds exactly the remote's annotations and logs,
//     artifacts (with their content), test reports (with steps and measurements)
//     saved searches and policies (with their versions);
//   - exactly once: each created annotation, comment, artifact, artifact version
//     imported report, saved search and policy exists once (no deleted
//     search remains);
//   - nothing lost: every field value written is the final value, or was
//     overwritten by a writer who could have seen it, or is in a conflict log;
//   - nothing stuck: no pending or failed outbox entry.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Annotation } from '../../../src-shared/api/annotations';
import { Code, type ApiError } from '../../../src-shared/errors';
import { prng } from '../../../src-main/seed/seedDemoData';
import { canonical } from '../../../src-main/sync/canonical';
import { startFaultProxy, type Fault, type FaultProxy } from '../faultProxy';
import { annotationRequest, createReplica, startRemote, viewOf, type Replica, type View } from '../helpers';
import { artifactCreate, artifactFuzz } from './artifacts';
import { byFuzzId, checkNothingLost, fieldConflicts, FuzzError, REMOTE, type FuzzContext, type Write } from './model';
import { policyCreate, policyFuzz } from './policies';
import { savedSearchCreate, savedSearchFuzz } from './savedSearches';
import { reportCreate, testReportFuzz } from './testReports';

const OUTPOST = fileURLToPath(new URL('../../../bin/outpost.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface FuzzOptions {
  readonly clients?: number;
  readonly steps?: number;
  /** Child-process syncs killed with SIGKILL mid-run. */
  readonly kills?: number;
  readonly log?: (line: string) => void;
}

export interface FuzzResult {
  readonly seed: number;
  readonly steps: number;
  readonly syncs: number;
  readonly kills: number;
  readonly annotations: number;
  /** Refused offline annotations the user gave up, and retries of refused ones after a correction. */
  readonly discarded: number;
  readonly corrected: number;
  /** Field conflicts the user undid (the losing value written again). */
  readonly undone: number;
  readonly comments: number;
  readonly artifacts: number;
  readonly artifactVersions: number;
  /** Replayed uploads whose extra copy the sync archived and logged. */
  readonly artifactDuplicates: number;
  readonly testReports: number;
  /** Saved searches created, and deleted. */
  readonly savedSearches: number;
  readonly savedSearchesDeleted: number;
  /** Edits of records deleted on the remote meanwhile, set aside by the user (each with its conflict). */
  readonly goneRemotely: number;
  readonly policies: number;
  /** Field conflicts logged, all resources (and those of artifacts and test reports). */
  readonly conflicts: number;
  readonly artifactConflicts: number;
  readonly testReportConflicts: number;
  readonly faults: number;
}

type Field = 'name' | 'description' | 'state' | 'tags' | 'assigned_to_user_id' | 'archived';

const STATES = ['ANNOTATION_STATE_OPEN', 'ANNOTATION_STATE_FLAGGED', 'ANNOTATION_STATE_RESOLVED'];
const TAGS = ['t1', 't2', 't3'];

function fieldOf(a: Annotation, f: Field): unknown {
  switch (f) {
    case 'name':
      return a.name;
    case 'description':
      return a.description;
    case 'state':
      return a.state ?? null;
    case 'tags':
      return a.tags;
    case 'assigned_to_user_id':
      return a.assignedToUserId;
    case 'archived':
      return a.isArchived;
  }
}

/** Share of the edits (offline and remote) that act on artifacts, test reports, saved searches and policies; the rest act on annotations. */
const MIX = { artifact: 0.2, testReport: 0.1, savedSearch: 0.1, policy: 0.08 };

const fuzzIdOf = (a: Pick<Annotation, 'metadata'>) => a.metadata.find((m) => m.key.name === 'fuzz_id')?.stringValue;

export async function runFuzz(seed: number, options: FuzzOptions = {}): Promise<FuzzResult> {
  const rand = prng(seed);
  // Fault draws depend on how many requests a run makes (timing): their own stream keeps the plan reproducible.
  const faultRand = prng(seed ^ 0x5bd1e995);
  const log = options.log ?? (() => {});
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const clientsN = options.clients ?? 3;
  const steps = options.steps ?? 60;
  let killsLeft = options.kills ?? 2;
  const users = Array.from({ length: clientsN }, (_, i) => (i === 0 ? 'engineer@outpost.local' : `fuzz${i}@outpost.local`)).slice(1);
  const remote = await startRemote([...users, 'web@outpost.local']);
  const proxy: FaultProxy = await startFaultProxy(remote.url);
  const web = remote.clientFor(remote.tokens['web@outpost.local']);
  const replicas: Replica[] = [];
  const tokens = [remote.token, ...users.map((u) => remote.tokens[u])];
  for (let i = 0; i < clientsN; i++) replicas.push(await createReplica(`c${i}`, proxy.url, tokens[i]));

  const writes: Write[] = [];
  const syncStarts = new Map<string, number[]>([[REMOTE, []]]);
  const comments = new Map<string, string>(); // text -> fuzz id
  const created = new Set<string>();
  let fuzzSeq = 0;
  let syncs = 0;
  let kills = 0;
  let step = 0;
  const userIds = () =>
    replicas[0].engine.db.all<{ id: string }>('SELECT id FROM users WHERE user_name NOT LIKE ?', ['% (local %']).map((r) => r.id);

  const record = (writer: string, fuzzId: string, field: Field, value: unknown, before?: Annotation, mayBeRefused = false) =>
    writes.push({
      writer,
      step,
      fuzzId,
      field,
      value: canonical(value),
      prev: before ? canonical(fieldOf(before, field)) : undefined,
      mayBeRefused,
    });
  const ctx: FuzzContext = {
    seed,
    rand,
    pick,
    replicas,
    step: () => step,
    record: (writer, fuzzId, field, value, prev) =>
      writes.push({ writer, step, fuzzId, field, value: canonical(value), prev: prev === undefined ? undefined : canonical(prev) }),
    knownAnnotations: (r) => known(r),
    nextId: (prefix) => `${prefix}${seed}-${++fuzzSeq}`,
  };
  const artifacts = artifactFuzz(ctx, remote);
  const reports = testReportFuzz(ctx, remote);
  const searches = savedSearchFuzz(ctx, remote);
  const policies = policyFuzz(ctx, remote);
  const current = async (r: Replica, id: string): Promise<Annotation> => (await r.call('GetAnnotation', { annotationId: id })).annotation;
  const noteSync = (name: string) => {
    const list = syncStarts.get(name) ?? [];
    list.push(step);
    syncStarts.set(name, list);
  };

  const faultKinds: Fault['kind'][] = ['drop', 'delay', 'status', 'throttle', 'lose', 'duplicate'];
  // A replayed create makes a second record that the client can only archive (see faults.test.ts):
  // duplicates are injected where a replay is harmless, and on artifact uploads, whose extra copy the
  // sync archives and logs (checked in ./artifacts.ts); every other fault anywhere.
  const duplicateSafe = (r: { method: string; path: string }) =>
    !(r.method === 'POST' && (r.path === '/api/v1/annotations' || r.path.endsWith('/logs'))) &&
    !artifactCreate(r) &&
    !reportCreate(r) &&
    !savedSearchCreate(r) &&
    !policyCreate(r);
  let faultRate = 0;
  const setRate = (rate: number) => {
    faultRate = rate;
    proxy.random(
      rate === 0 ? undefined : { rate, kinds: faultKinds, random: faultRand, allow: (kind, r) => kind !== 'duplicate' || duplicateSafe(r) },
    );
  };

  // The remote refuses an annotation named `x:…`, created or renamed so (a value it does not take, as a real platform
  // may refuse an asset or a user).
  // And a comment whose text starts so.
  proxy.refuse(
    (r) =>
      ((r.method === 'POST' || r.method === 'PATCH') && r.path === '/api/v1/annotations' && r.body.includes('"name":"x:')) ||
      (r.method === 'POST' && r.path.endsWith('/logs') && r.body.includes('"text":"x:')),
    { status: 400, code: Code.INVALID_ARGUMENT, message: "the prefix 'x:' is not allowed here" },
  );
  const discarded = new Set<string>();
  let corrected = 0;

  /**
   * The user handles a refused create of `r`, if any: gives it up (it, its comments and the edits that waited go; the
   * model forgets them), or, when that is refused (an edit that waited also writes other records) or by choice,
   * corrects its name and retries it.
   */
  const resolveRefused = async (r: Replica): Promise<string | undefined> => {
    const gone = await setAsideGone(r);
    if (gone) return gone;
    const entry = r.engine.db.get<{ seq: number; created_ids: string }>(
      "SELECT seq, created_ids FROM sync_outbox WHERE state = 'failed' AND operation = 'CreateAnnotation' ORDER BY seq LIMIT 1",
    );
    if (!entry) {
      // A refused rename or comment (not one that waited on a refused create): set aside, the comment given up here;
      // the remote's name stands everywhere.
      const other = r.engine.db.get<{ seq: number; operation: string }>(
        "SELECT seq, operation FROM sync_outbox WHERE state = 'failed' AND operation IN ('UpdateAnnotation', 'CreateAnnotationLog') AND last_error NOT LIKE 'depends on%' ORDER BY seq LIMIT 1",
      );
      if (!other) return undefined;
      await r.call('DismissSyncEntry', { seq: String(other.seq), discardRecord: other.operation === 'CreateAnnotationLog' });
      return `${other.operation === 'CreateAnnotationLog' ? 'discard refused comment' : 'dismiss refused update'} #${other.seq}`;
    }
    const [{ id }] = JSON.parse(entry.created_ids) as { id: string }[];
    const before = await current(r, id);
    const fuzzId = fuzzIdOf(before)!;
    if (rand() < 0.5) {
      try {
        await r.call('DismissSyncEntry', { seq: String(entry.seq), discardRecord: true });
        discarded.add(fuzzId);
        created.delete(fuzzId);
        for (const [text, f] of comments) if (f === fuzzId) comments.delete(text);
        return `discard ${fuzzId}`;
      } catch (e) {
        if ((e as ApiError).code !== Code.FAILED_PRECONDITION) throw e;
      }
    }
    const name = `n${step}-fixed`;
    await r.call('UpdateAnnotation', { annotation: { annotationId: id, name }, updateMask: 'name' });
    record(r.name, fuzzId, 'name', name, before);
    await r.call('RetrySyncEntry', { seq: String(entry.seq) });
    corrected++;
    return `correct and retry ${fuzzId}`;
  };

  let goneRemotely = 0;
  /**
   * An edit that found its record deleted on the remote: it must come with an open remote_missing conflict for
   * that record; the user sets the edit aside and dismisses the conflict (the copy here then goes at the next sync).
   */
  const setAsideGone = async (r: Replica): Promise<string | undefined> => {
    const entry = r.engine.db.get<{ seq: number; operation: string }>(
      "SELECT seq, operation FROM sync_outbox WHERE state = 'failed' AND last_error LIKE 'not found on the remote%' ORDER BY seq LIMIT 1",
    );
    if (!entry) return undefined;
    const open = (await r.call('ListSyncConflicts', { pageSize: 1000 })).conflicts as {
      conflictId: string;
      kind: string;
      recordId: string;
    }[];
    const targets = r.engine.db
      .all<{ record_id: string }>('SELECT record_id FROM sync_outbox_targets WHERE seq = ?', [entry.seq])
      .map((t) => t.record_id);
    const told = open.filter((c) => c.kind === 'remote_missing' && targets.includes(c.recordId));
    if (told.length === 0)
      throw new FuzzError(
        `seed ${seed}: ${r.name} #${entry.seq} (${entry.operation}) found its record gone from the remote, and no conflict says so`,
      );
    // One conflict tells of the record, however many edits of it found it gone: the user sets them all aside with it.
    const sameRecord = r.engine.db
      .all<{ seq: number }>(
        `SELECT DISTINCT o.seq FROM sync_outbox o JOIN sync_outbox_targets t ON t.seq = o.seq
         WHERE o.state = 'failed' AND o.last_error LIKE 'not found on the remote%' AND t.record_id IN (SELECT value FROM json_each(?)) ORDER BY o.seq`,
        [JSON.stringify(told.map((c) => c.recordId))],
      )
      .map((e) => e.seq);
    for (const seq of sameRecord) await r.call('DismissSyncEntry', { seq: String(seq) });
    for (const c of told) await r.call('DismissSyncConflict', { conflictId: c.conflictId });
    goneRemotely++;
    return `set aside #${sameRecord.join(', #')} (${entry.operation}): its record is gone from the remote`;
  };

  let undone = 0;
  /**
   * The user undoes a field conflict of `r` the sync logged on an annotation, if one can be: the losing value is
   * written again (a synced edit, recorded like any other).
   */
  const undoConflict = async (r: Replica): Promise<string | undefined> => {
    const open = (await r.call('ListSyncConflicts', { pageSize: 1000 })).conflicts as {
      conflictId: string;
      resource: string;
      recordId: string;
      field: string;
      winner: string;
      localValue: unknown;
      remoteValue: unknown;
      undoable: boolean;
    }[];
    const candidates = open.filter((c) => c.undoable && c.resource === 'annotation');
    if (candidates.length === 0) return undefined;
    const c = pick(candidates);
    const before = await current(r, c.recordId);
    const fuzzId = fuzzIdOf(before);
    if (!fuzzId) return undefined;
    await r.call('UndoSyncConflict', { conflictId: c.conflictId });
    record(r.name, fuzzId, c.field as Field, c.winner === 'remote' ? c.localValue : c.remoteValue, before);
    undone++;
    return `undo conflict ${fuzzId} ${c.field}`;
  };

  const known = (r: Replica) =>
    Object.values(viewOf(r.engine.db).annotations)
      .map((a) => ({ id: a.annotationId, fuzzId: fuzzIdOf(a as unknown as Annotation) }))
      .filter((a): a is { id: string; fuzzId: string } => !!a.fuzzId)
      .sort(byFuzzId);

  const syncInProcess = async (r: Replica) => {
    noteSync(r.name);
    syncs++;
    // Every other run reads the edited records again during its push, between every round of requests or often.
    const s = await r.sync({ retry: { baseDelayMs: 2, maxDelayMs: 20, maxAttempts: 3 }, pushRereadEveryMs: [5_000, 0, 20][syncs % 3] });
    log(
      `  step ${step}: ${r.name} sync ${s.ok ? 'ok' : `incomplete (${s.error})`} pushed=${s.progress.pushed} conflicts=${s.progress.conflicts} pending=${s.pending}`,
    );
  };

  let partitioned = false;
  // A child `outpost sync` killed with SIGKILL mid-run: with pending edits, the link up and every request slowed a
  // little so the kill lands inside the pull or the push (entries in flight, pages half applied).
  const syncKilled = async (r: Replica) => {
    if (partitioned) {
      proxy.heal();
      partitioned = false;
    }
    for (let i = 0; i < 4; i++) {
      log(`  step ${step}: ${r.name} ${await edit(r)}`);
      step++;
    }
    const rate = faultRate;
    proxy.random({ rate: 1, kinds: ['delay'], random: faultRand });
    noteSync(r.name);
    syncs++;
    // The child is the data directory's one owner while it runs (the lock refuses a second): the replica lets go of it.
    r.release();
    const child = spawn(
      process.execPath,
      [
        OUTPOST,
        'sync',
        '--data',
        r.dir,
        '--remote',
        proxy.url,
        '--token',
        r.token,
        '--retry-base-ms',
        '2',
        '--retry-attempts',
        '3',
        '--timeout-ms',
        '3000',
        '--create-quiet-ms',
        '300',
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const marker = rand() < 0.3 ? 'pull...' : 'push...';
    const delay = Math.floor(rand() * (marker === 'pull...' ? 40 : 150));
    let out = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const killed = await new Promise<boolean>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes(marker)) setTimeout(() => resolve(child.kill('SIGKILL')), delay);
      });
      void exited.then(() => resolve(false));
    });
    const code = await exited;
    r.reopen();
    setRate(rate);
    if (killed && code === null) kills++;
    // 0: synced; 1: incomplete (faults). Anything else (2: refused, e.g. the directory in use) means no kill was tested.
    if (!killed && code !== 0 && code !== 1)
      throw new FuzzError(`seed ${seed}: ${r.name}'s child sync exited ${code}: ${stderr.trim().slice(0, 400)}`);
    const inflight = r.engine.db.get<{ n: number }>("SELECT count(*) AS n FROM sync_outbox WHERE state = 'inflight'")!.n;
    const open = r.engine.db.get<{ n: number }>("SELECT count(*) AS n FROM sync_outbox WHERE state IN ('pending', 'inflight')")!.n;
    log(
      `  step ${step}: ${r.name} child sync ${killed && code === null ? `SIGKILLed after '${marker}'+${delay}ms (${open} edits open, ${inflight} in flight)` : `exited ${code}`}`,
    );
  };

  const edit = async (r: Replica): Promise<string> => {
    // Annotations stay the bulk of the mix; artifacts and reports cost more per action (files, an XML parse).
    if (rand() < 0.15) {
      const resolved = await resolveRefused(r);
      if (resolved) return resolved;
    }
    if (rand() < 0.25) {
      const undo = await undoConflict(r);
      if (undo) return undo;
    }
    const resource = rand();
    if (resource < MIX.artifact) return artifacts.edit(r);
    if (resource < MIX.artifact + MIX.testReport) return reports.edit(r);
    if (resource < MIX.artifact + MIX.testReport + MIX.savedSearch) return searches.edit(r);
    if (resource < MIX.artifact + MIX.testReport + MIX.savedSearch + MIX.policy) return policies.edit(r);
    const mine = known(r);
    const roll = rand();
    if (mine.length === 0 || roll < 0.2) {
      const fuzzId = `f${seed}-${++fuzzSeq}`;
      const name = rand() < 0.15 ? `x:n${step}` : `n${step}`;
      const state = pick(STATES);
      const tags = TAGS.filter(() => rand() < 0.4);
      await r.call(
        'CreateAnnotation',
        annotationRequest(name, { state, tags, metadata: [{ key: { name: 'fuzz_id' }, stringValue: fuzzId }] }),
      );
      created.add(fuzzId);
      for (const [f, v] of [
        ['name', name],
        ['description', ''],
        ['state', state],
        ['tags', tags],
        ['assigned_to_user_id', ''],
        ['archived', false],
      ] as const)
        record(r.name, fuzzId, f, v);
      return `create ${fuzzId}`;
    }
    const target = pick(mine);
    const before = await current(r, target.id);
    const kind = rand();
    if (kind < 0.35) {
      const fields = (['name', 'description', 'state', 'tags', 'assigned_to_user_id'] as const).filter(() => rand() < 0.4);
      if (fields.length === 0) fields.push('name');
      // Now and then a rename the remote refuses, with the update's other values: none need survive (see Write).
      const refused = fields.includes('name') && rand() < 0.1;
      const patch: Record<string, unknown> = { annotationId: target.id };
      for (const f of fields) {
        const v =
          f === 'name'
            ? `${refused ? 'x:' : ''}n${step}-${r.name}`
            : f === 'description'
              ? `d${step}-${r.name}`
              : f === 'state'
                ? pick(STATES)
                : f === 'tags'
                  ? TAGS.filter(() => rand() < 0.5)
                  : pick(['', ...userIds()]);
        patch[f === 'assigned_to_user_id' ? 'assignedToUserId' : f] = v;
        record(r.name, target.fuzzId, f, v, before, refused);
      }
      await r.call('UpdateAnnotation', { annotation: patch, updateMask: fields.join(',') });
      return `${refused ? 'refused ' : ''}update ${target.fuzzId} ${fields.join(',')}`;
    }
    if (kind < 0.5) {
      const archived = rand() < 0.6;
      await r.call(archived ? 'ArchiveAnnotation' : 'UnarchiveAnnotation', { annotationId: target.id });
      record(r.name, target.fuzzId, 'archived', archived, before);
      return `${archived ? 'archive' : 'unarchive'} ${target.fuzzId}`;
    }
    if (kind < 0.58) {
      const others = known(r).filter((x) => x.id !== target.id && rand() < 0.5);
      const ids = [target, ...others];
      const befores = await Promise.all(ids.map((x) => current(r, x.id)));
      await r.call('BatchArchiveAnnotations', { annotationIds: ids.map((x) => x.id) });
      ids.forEach((x, i) => record(r.name, x.fuzzId, 'archived', true, befores[i]));
      return `batch archive ${ids.length}`;
    }
    if (kind < 0.8) {
      // Now and then one the remote refuses: it must never reach it (the user gives it up).
      const refused = rand() < 0.1;
      const text = `${refused ? 'x:' : ''}c${step}-${r.name}-${Math.floor(rand() * 1e6)}`;
      await r.call('CreateAnnotationLog', {
        annotationId: target.id,
        kind: 'ANNOTATION_LOG_KIND_COMMENT',
        comment: { body: [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text }] },
      });
      if (!refused) comments.set(text, target.fuzzId);
      return `${refused ? 'refused ' : ''}comment ${target.fuzzId}`;
    }
    if (kind < 0.9) {
      const state = pick(STATES);
      await r.call('CreateAnnotationLog', {
        annotationId: target.id,
        kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE',
        stateUpdate: { state: state.replace('ANNOTATION_STATE_', 'ANNOTATION_LOG_STATE_') },
      });
      record(r.name, target.fuzzId, 'state', state, before);
      return `state log ${target.fuzzId}`;
    }
    const user = pick(['', ...userIds()]);
    await r.call('CreateAnnotationLog', {
      annotationId: target.id,
      kind: 'ANNOTATION_LOG_KIND_ASSIGNED',
      assigned: { assignedToUserId: user },
    });
    record(r.name, target.fuzzId, 'assigned_to_user_id', user, before);
    return `assign log ${target.fuzzId}`;
  };

  const remoteEdit = async () => {
    const all = viewOf(remote.engine.db).annotations;
    const list = (
      Object.values(all)
        .map((a) => ({ id: a.annotationId, fuzzId: fuzzIdOf(a as unknown as Annotation) }))
        .filter((a) => a.fuzzId) as { id: string; fuzzId: string }[]
    ).sort(byFuzzId);
    noteSync(REMOTE);
    const resource = rand();
    if (resource < MIX.artifact) return artifacts.remoteEdit(list);
    if (resource < MIX.artifact + MIX.testReport) return reports.remoteEdit();
    if (resource < MIX.artifact + MIX.testReport + MIX.savedSearch) return searches.remoteEdit();
    if (resource < MIX.artifact + MIX.testReport + MIX.savedSearch + MIX.policy) return policies.remoteEdit();
    if (list.length === 0 || rand() < 0.15) {
      const fuzzId = `f${seed}-${++fuzzSeq}`;
      await web.CreateAnnotation(annotationRequest(`w${step}`, { metadata: [{ key: { name: 'fuzz_id' }, stringValue: fuzzId }] }));
      created.add(fuzzId);
      for (const [f, v] of [
        ['name', `w${step}`],
        ['description', ''],
        ['state', 'ANNOTATION_STATE_OPEN'],
        ['tags', []],
        ['assigned_to_user_id', ''],
        ['archived', false],
      ] as const)
        record(REMOTE, fuzzId, f, v);
      return `web create ${fuzzId}`;
    }
    const t = pick(list);
    if (rand() < 0.3) {
      const text = `web${step}-${Math.floor(rand() * 1e6)}`;
      await web.CreateAnnotationLog({
        annotationId: t.id,
        kind: 'ANNOTATION_LOG_KIND_COMMENT',
        comment: { body: [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text }] },
      });
      comments.set(text, t.fuzzId);
      return `web comment ${t.fuzzId}`;
    }
    const name = `web${step}`;
    const before = (await web.GetAnnotation({ annotationId: t.id })).annotation as Annotation;
    await web.UpdateAnnotation({ annotation: { annotationId: t.id, name }, updateMask: 'name' });
    record(REMOTE, t.fuzzId, 'name', name, before);
    return `web rename ${t.fuzzId}`;
  };

  try {
    // Everyone starts from the remote's state.
    for (const r of replicas) await syncInProcess(r);
    for (step = 1; step <= steps; step++) {
      const roll = rand();
      const r = pick(replicas);
      if (roll < 0.5) log(`  step ${step}: ${r.name} ${await edit(r)}`);
      else if (roll < 0.58) log(`  step ${step}: ${await remoteEdit()}`);
      else if (roll < 0.66) {
        setRate(pick([0, 0.1, 0.25, 0.4]));
        log(`  step ${step}: fault rate ${faultRate}`);
      } else if (roll < 0.7) {
        partitioned = rand() < 0.5;
        if (partitioned) proxy.partition();
        else proxy.heal();
        log(`  step ${step}: partition toggled`);
      } else if (killsLeft > 0 && roll < 0.78) {
        killsLeft--;
        await syncKilled(r);
      } else await syncInProcess(r);
    }
    // Leftover kills happen now, while edits are pending.
    while (killsLeft-- > 0) {
      await syncKilled(pick(replicas));
      step++;
    }
    // Heal and settle: everyone syncs, handles what the remote refused, and syncs until nothing moves.
    proxy.heal();
    partitioned = false;
    setRate(0);
    step++;
    // (A retried create brings back the edits that waited on it, and one of them may be refused in turn.)
    const unsettled = (r: Replica) =>
      r.engine.db.get("SELECT 1 FROM sync_outbox WHERE state IN ('pending', 'inflight', 'failed')") !== undefined;
    for (const r of replicas) {
      for (let round = 0; round === 0 || (unsettled(r) && round < 5); round++) {
        await syncInProcess(r);
        for (let resolved = await resolveRefused(r); resolved; resolved = await resolveRefused(r))
          log(`  step ${step}: ${r.name} ${resolved}`);
        step++;
      }
    }
    for (let round = 0; round < 3; round++) {
      for (const r of replicas) {
        await syncInProcess(r);
        step++;
      }
    }
    return check();
  } finally {
    for (const r of replicas) r.close();
    await proxy.close();
    await remote.close();
  }

  function check(): FuzzResult {
    const fail = (why: string): never => {
      throw new FuzzError(`seed ${seed}: ${why}`);
    };
    const remoteView: View = viewOf(remote.engine.db);
    for (const r of replicas) {
      const v = viewOf(r.engine.db);
      if (canonical(v) !== canonical(remoteView)) {
        const diff = [...new Set([...Object.keys(v.annotations), ...Object.keys(remoteView.annotations)])].filter(
          (id) => canonical(v.annotations[id]) !== canonical(remoteView.annotations[id]),
        );
        const logDiff = [...new Set([...Object.keys(v.logs), ...Object.keys(remoteView.logs)])].filter(
          (id) => canonical(v.logs[id]) !== canonical(remoteView.logs[id]),
        );
        const fieldDiff = (x: Record<string, unknown> | undefined, y: Record<string, unknown> | undefined) =>
          !x || !y
            ? { local: x ?? 'missing', remote: y ?? 'missing' }
            : Object.fromEntries(
                Object.keys({ ...x, ...y })
                  .filter((k) => canonical(x[k]) !== canonical(y[k]))
                  .map((k) => [k, { local: x[k], remote: y[k] }]),
              );
        fail(
          `${r.name} diverges from the remote: annotations ${JSON.stringify(diff.slice(0, 3).map((id) => [id, fieldDiff(v.annotations[id], remoteView.annotations[id])]))} ` +
            `logs ${JSON.stringify(logDiff.slice(0, 3).map((id) => [id, fieldDiff(v.logs[id] as never, remoteView.logs[id] as never)]))}`,
        );
      }
      const open = r.engine.db.get<{ n: number }>(
        "SELECT count(*) AS n FROM sync_outbox WHERE state IN ('pending', 'inflight', 'failed')",
      )!.n;
      if (open)
        fail(
          `${r.name} has ${open} outbox entries not delivered: ${JSON.stringify(r.engine.db.all("SELECT seq, operation, state, last_error FROM sync_outbox WHERE state IN ('pending', 'inflight', 'failed')"))}`,
        );
    }
    // Exactly once: annotations by fuzz id, comments by text.
    const byFuzz = new Map<string, Annotation[]>();
    for (const a of Object.values(remoteView.annotations)) {
      const f = fuzzIdOf(a as unknown as Annotation);
      if (f) byFuzz.set(f, [...(byFuzz.get(f) ?? []), a as unknown as Annotation]);
    }
    for (const f of created) {
      const n = byFuzz.get(f)?.length ?? 0;
      if (n !== 1) fail(`annotation ${f} exists ${n} times on the remote`);
    }
    for (const f of discarded) if (byFuzz.has(f)) fail(`annotation ${f} was discarded, yet the remote has it`);
    for (const a of Object.values(remoteView.annotations))
      if (a.name.startsWith('x:')) fail(`the remote holds refused annotation ${a.annotationId} (${a.name})`);
    if (byFuzz.size !== created.size) fail(`the remote has ${byFuzz.size} fuzz annotations, ${created.size} were created`);
    const textCount = new Map<string, { n: number; annotationId: string }>();
    for (const l of Object.values(remoteView.logs)) {
      const text = l.comment?.body[0]?.text;
      if (!text) continue;
      const prev = textCount.get(text);
      textCount.set(text, { n: (prev?.n ?? 0) + 1, annotationId: l.annotationId });
    }
    for (const text of textCount.keys()) if (text.startsWith('x:')) fail(`the remote holds refused comment '${text}'`);
    for (const [text, fuzzId] of comments) {
      const c = textCount.get(text);
      if (!c || c.n !== 1) fail(`comment '${text}' exists ${c?.n ?? 0} times on the remote`);
      if (fuzzIdOf(remoteView.annotations[c!.annotationId] as unknown as Annotation) !== fuzzId)
        fail(`comment '${text}' is on the wrong annotation`);
    }
    // Each resource checks its own convergence and exactly-once, and says where its writes ended up.
    const remoteAnnotations = Object.values(remoteView.annotations)
      .map((x) => ({ id: x.annotationId, fuzzId: fuzzIdOf(x as unknown as Annotation)! }))
      .filter((x) => x.fuzzId);
    const artifactOutcome = artifacts.check(fail, remoteAnnotations);
    const reportOutcome = reports.check(fail);
    const searchOutcome = searches.check(fail);
    const policyOutcome = policies.check(fail);
    // Nothing lost.
    const losers = new Set<string>([...artifactOutcome.losers, ...reportOutcome.losers, ...searchOutcome.losers, ...policyOutcome.losers]);
    let conflicts = artifactOutcome.conflicts + reportOutcome.conflicts + searchOutcome.conflicts + policyOutcome.conflicts;
    for (const r of replicas) {
      for (const c of fieldConflicts(r, 'annotation')) {
        conflicts++;
        const f = fuzzIdOf(remoteView.annotations[c.record_id] as unknown as Annotation);
        const loser = c.winner === 'remote' ? c.local_value : c.remote_value;
        losers.add(`${f}\u0000${c.field}\u0000${canonical(JSON.parse(loser!))}`);
      }
    }
    const final = (w: Write) => {
      if (w.fuzzId.startsWith('a')) return artifactOutcome.final(w);
      if (w.fuzzId.startsWith('r')) return reportOutcome.final(w);
      if (w.fuzzId.startsWith('s')) return searchOutcome.final(w);
      if (w.fuzzId.startsWith('p')) return policyOutcome.final(w);
      return canonical(fieldOf(byFuzz.get(w.fuzzId)![0], w.field as Field));
    };
    const explain = (w: Write) => {
      const id = w.fuzzId.startsWith('f') ? byFuzz.get(w.fuzzId)![0].annotationId : undefined;
      return replicas
        .map(
          (r) =>
            `${r.name}: ` +
            (id
              ? JSON.stringify(
                  r.engine.db.all(
                    `SELECT o.seq, o.operation, o.state, o.attempts, o.local_time, t.fields, o.request FROM sync_outbox o JOIN sync_outbox_targets t ON t.seq = o.seq WHERE t.record_id = ?`,
                    [id],
                  ),
                ) +
                ' ids ' +
                JSON.stringify(r.engine.db.all('SELECT * FROM sync_id_map WHERE remote_id = ? OR local_id = ?', [id, id]))
              : JSON.stringify(
                  r.engine.db.all(
                    `SELECT o.seq, o.operation, o.state, o.attempts, o.local_time, t.record_id, t.fields FROM sync_outbox o JOIN sync_outbox_targets t ON t.seq = o.seq WHERE t.fields LIKE ?`,
                    [`%${w.field.split(':')[0]}%`],
                  ),
                )) +
            ' conflicts ' +
            JSON.stringify(
              r.engine.db.all(
                'SELECT resource, record_id, field, winner, local_value, remote_value, local_time, remote_time FROM sync_conflicts',
              ),
            ),
        )
        .join('\n  ');
    };
    // (A deleted record's values need not survive: the deletion wins, and an edit it overtook is told as a conflict.)
    checkNothingLost(
      writes.filter((w) => !discarded.has(w.fuzzId) && !searches.deleted.has(w.fuzzId)),
      syncStarts,
      final,
      losers,
      fail,
      explain,
    );
    return {
      seed,
      steps,
      syncs,
      kills,
      annotations: created.size,
      discarded: discarded.size,
      corrected,
      undone,
      comments: comments.size,
      artifacts: artifacts.versions.size,
      artifactVersions: [...artifacts.versions.values()].reduce((n, v) => n + v.length, 0),
      artifactDuplicates: artifacts.duplicates(),
      testReports: reports.imports.size,
      savedSearches: searches.created.size,
      savedSearchesDeleted: searches.deleted.size,
      goneRemotely,
      policies: policies.creates.size,
      conflicts,
      artifactConflicts: artifactOutcome.conflicts,
      testReportConflicts: reportOutcome.conflicts,
      faults: proxy.log.filter((e) => e.fault).length,
    };
  }
}
