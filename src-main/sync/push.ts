// Push: replays the outbox against the remote, in order per dependency.
// Entries that touch disjoint records run concurrently (a small window);
// entries sharing a record or referring to one another's records run in seq
// order. Each entry is marked in flight (committed) before it is sent, so a
// crash or a lost response leaves a trace: a create in flight is looked up on
// the remote before it is ever sent again.
import { nowMicros } from '../../src-shared/api/time';
import { recordConflict } from './conflicts';
import { collectIds, translateIds, unmappedIds } from './idMap';
import { finishEntry, loadEntry, markInflight, noteError, openEntries, targetsOf } from './outbox';
import { AuthError, backoffDelay, classify, sleep } from './retry';
import type { SyncSession } from './session';
import { specFor } from './specs';
import { ANNOTATION, localFields } from './resources/annotations';
import type { OutboxEntry, PushContext } from './types';

type Outcome = 'done' | 'failed' | 'deferred';

export interface PushResult {
  pushed: number;
  failed: number;
  deferred: number;
}

export function pushContext(s: SyncSession): PushContext {
  return {
    db: s.db,
    call: (op, req) => s.remote.call(op, req),
    userId: s.identity.userId,
    serverNow: () => s.remote.serverNow(),
    clockOffset: s.remote.clockOffset(),
    apply: s.applier,
    features: s.features,
  };
}

function complete(s: SyncSession, p: PushContext, entry: OutboxEntry, response: unknown, how: string): void {
  const spec = specFor(entry.operation)!;
  s.db.tx(() => {
    const current = loadEntry(s.db, entry.seq);
    if (!current || (current.state !== 'pending' && current.state !== 'inflight')) return; // a pull adopted it meanwhile
    spec.applyResult(p, current, response);
    finishEntry(s.db, entry.seq, 'done', { result: { how } });
  });
}

/** A refused write leaves the local copy ahead of the remote: take the remote's version back. */
async function refetchTargets(s: SyncSession, p: PushContext, entry: OutboxEntry): Promise<void> {
  for (const t of targetsOf(s.db, entry.seq)) {
    if (t.resource !== ANNOTATION) continue;
    try {
      const res = await p.call('GetAnnotation', { annotationId: t.recordId });
      s.applier.annotations([res.annotation], { force: true });
    } catch {
      /* the next pull or sync settles it */
    }
  }
}

function fail(s: SyncSession, entry: OutboxEntry, code: number | null, message: string): Outcome {
  s.db.tx(() => finishEntry(s.db, entry.seq, 'failed', { code: code ?? undefined, message }));
  s.progress.failed++;
  s.event({ type: 'entry-failed', seq: entry.seq, operation: entry.operation, message });
  return 'failed';
}

async function pushEntry(s: SyncSession, p: PushContext, seq: number): Promise<Outcome> {
  let entry = loadEntry(s.db, seq);
  if (!entry || (entry.state !== 'pending' && entry.state !== 'inflight')) return 'done';
  const spec = specFor(entry.operation);
  if (!spec) return fail(s, entry, null, `${entry.operation} is not replicated by this version of Outpost`);

  // A record this entry refers to was created offline by an entry that failed: this one cannot succeed either.
  const own = new Set(entry.createdIds.map((c) => c.id));
  for (const dep of unmappedIds(s.db, entry.request)) {
    if (own.has(dep.localId)) continue;
    const creator = loadEntry(s.db, dep.createdBySeq);
    if (creator && (creator.state === 'failed' || creator.state === 'superseded')) {
      return fail(s, entry, null, `depends on #${creator.seq} (${creator.operation}), which failed: ${creator.lastError ?? creator.state}`);
    }
    if (creator && creator.seq !== entry.seq) return 'deferred';
  }

  let unknownOutcome = entry.attempts > 0;
  for (let attempt = 0; ; attempt++) {
    s.throwIfAborted();
    try {
      if (spec.kind === 'create' && unknownOutcome && spec.findExisting) {
        const found = await spec.findExisting(p, entry);
        if (found) {
          complete(s, p, entry, found, 'found after unknown outcome');
          s.progress.recovered++;
          return 'done';
        }
      }
      const request = spec.encode(translateIds(s.db, entry.request), entry);
      markInflight(s.db, entry.seq, s.remote.serverNow());
      entry = { ...entry, attempts: entry.attempts + 1, firstSentServerTime: entry.firstSentServerTime ?? s.remote.serverNow() };
      const response = await p.call(entry.operation, request);
      complete(s, p, entry, response, 'sent');
      return 'done';
    } catch (e) {
      if (s.signal?.aborted) throw s.signal.reason;
      const f = classify(e);
      switch (f.kind) {
        case 'transient':
          unknownOutcome ||= f.unknownOutcome;
          noteError(s.db, entry.seq, f.code, f.message);
          s.progress.retries++;
          if (attempt + 1 >= s.retry.maxAttempts) {
            s.lastTransient = f.message;
            return 'deferred';
          }
          await sleep(backoffDelay(s.retry, attempt, f.retryAfterMs), s.signal);
          continue;
        case 'auth':
          noteError(s.db, entry.seq, f.code, f.message);
          throw new AuthError(f.message, f.code);
        case 'notFound':
          if (spec.notFoundIsDone) {
            complete(s, p, entry, undefined, 'already gone');
            return 'done';
          }
          // The record is gone remotely: keep the local copy, tell the user.
          s.db.tx(() => {
            for (const t of targetsOf(s.db, entry!.seq)) {
              if (t.resource !== ANNOTATION || t.fields.includes('*create')) continue;
              const row = s.db.get<{ pk: number }>('SELECT pk FROM annotations WHERE id = ?', [t.recordId]);
              recordConflict(s.db, {
                kind: 'remote_missing', resource: t.resource, recordId: t.recordId, field: '*', winner: 'local',
                localValue: row ? localFields(s.db, row.pk) : null, remoteValue: null, localTime: entry!.localTime, remoteTime: nowMicros(),
                message: `${entry!.operation}: ${f.message}`,
              });
            }
          });
          return fail(s, entry, f.code, `not found on the remote (kept locally; see conflicts): ${f.message}`);
        case 'exists': {
          // 409 on a create: it already exists there; adopt it.
          if (spec.findExisting) {
            const found = await spec.findExisting(p, entry).catch(() => undefined);
            if (found) {
              complete(s, p, entry, found, 'adopted existing');
              return 'done';
            }
          }
          const outcome = fail(s, entry, f.code, f.message);
          await refetchTargets(s, p, entry);
          return outcome;
        }
        case 'rejected': {
          const outcome = fail(s, entry, f.code, f.message);
          await refetchTargets(s, p, entry);
          return outcome;
        }
      }
    }
  }
}

/** Ids an entry touches: records it targets or creates and every id its request mentions. */
function keysOf(s: SyncSession, entry: OutboxEntry): string[] {
  const keys = collectIds(entry.request);
  for (const t of targetsOf(s.db, entry.seq)) keys.add(t.recordId);
  for (const c of entry.createdIds) keys.add(c.id);
  return [...keys];
}

export async function push(s: SyncSession): Promise<PushResult> {
  const p = pushContext(s);
  const result: PushResult = { pushed: 0, failed: 0, deferred: 0 };
  const running = new Map<number, { keys: string[]; promise: Promise<void> }>();
  let stop: unknown;
  let deferred = false;
  let after = 0;
  let queue: OutboxEntry[] = [];
  let exhausted = false;
  const waiting: OutboxEntry[] = [];

  const launch = (entry: OutboxEntry, keys: string[]) => {
    const promise = pushEntry(s, p, entry.seq)
      .then((outcome) => {
        if (outcome === 'done') {
          result.pushed++;
          s.progress.pushed++;
        } else if (outcome === 'failed') result.failed++;
        else {
          result.deferred++;
          deferred = true;
        }
        s.tick();
      })
      .catch((e) => {
        stop ??= e;
      })
      .finally(() => running.delete(entry.seq));
    running.set(entry.seq, { keys, promise });
  };

  for (;;) {
    if (stop === undefined && !deferred) {
      // Candidates in seq order: entries still waiting for a related one first, then fresh ones.
      if (queue.length === 0 && !exhausted) {
        queue = openEntries(s.db, after, 500);
        if (queue.length === 0) exhausted = true;
        else after = queue[queue.length - 1].seq;
      }
      const candidates = [...waiting, ...queue];
      waiting.length = 0;
      queue = [];
      const blocked = new Set<string>();
      for (const r of running.values()) for (const k of r.keys) blocked.add(k);
      for (const entry of candidates) {
        const keys = keysOf(s, entry);
        if (running.size >= s.concurrency || keys.some((k) => blocked.has(k))) {
          waiting.push(entry);
          for (const k of keys) blocked.add(k);
          continue;
        }
        for (const k of keys) blocked.add(k);
        launch(entry, keys);
      }
    }
    if (running.size === 0) {
      if (stop !== undefined || deferred) break;
      if (waiting.length === 0 && exhausted) break;
      continue;
    }
    await Promise.race([...running.values()].map((r) => r.promise));
  }
  if (stop !== undefined) throw stop;
  return result;
}
