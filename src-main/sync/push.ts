// Push: replays the outbox against the remote, in order per dependency.
// Entries that touch disjoint records run concurrently (a window that narrows
// while the remote says it is overloaded: pushWindow.ts);
// entries sharing a record or referring to one another's records run in seq
// order. Each entry is marked in flight (committed) before it is sent, so a
// crash or a lost response leaves a trace: a create in flight is looked up on
// the remote before it is ever sent again.
import { nowMicros } from '../../src-shared/api/time';
import { ApiError, Code } from '../../src-shared/errors';
import { operationList } from '../../src-shared/operations';
import { groupCommitFor } from '../db/groupCommit';
import { recordConflict } from './conflicts';
import { collectIds, idStates, localIdsOf, replaceIds, translateIds, unmappedIds } from './idMap';
import {
  finishEntry,
  isOpen,
  lastSentAt,
  loadEntry,
  markInflight,
  noteError,
  OPEN_STATES,
  openAmong,
  openEntries,
  setRequest,
  targetsOf,
  targetsOfMany,
} from './outbox';
import { AuthError, backoffDelay, classifyPush, isOverload, sleep } from './retry';
import type { ResourceCatalog } from './catalog';
import type { SyncSession } from './session';
import type { OutboxEntry, Target } from './types';
import type { PushContext } from './spec';
import { typedCall } from './wireTypes';
import { noteRefetch, refetchNoted } from './refetch';
import { widenCheckpoints } from './walCheckpoints';

/**
 * held: the remote lacks the operation (see hold); the entry stays pending and blocks nothing. settled: no longer
 * open when its turn came (the user set it aside while this push had it queued): nothing sent, nothing pushed.
 */
type Outcome = 'done' | 'failed' | 'deferred' | 'held' | 'settled';

export interface PushResult {
  pushed: number;
  failed: number;
  deferred: number;
  /** Entries kept pending because the remote does not offer their operation. */
  held: number;
}

function pushContext(s: SyncSession, c: ResourceCatalog): PushContext {
  return {
    db: s.db,
    call: typedCall((op, req) => s.remote.call(op, req)),
    userId: s.identity.userId,
    serverNow: () => s.remote.serverNow(),
    clockOffset: s.remote.clockOffset(),
    apply: s.applier,
    idRewriters: c,
    features: s.features,
  };
}

/**
 * Completions and in-flight marks share commits with the other writes of the same turn of the event loop
 * (db/groupCommit.ts: a commit per entry cost more than the entry's own writes). An entry counts as done only
 * once its group committed; a crash before that leaves it open, and it is resent (writes) or looked up
 * (creates) by the next sync. A create is sent only once its in-flight mark committed.
 */
const complete = (s: SyncSession, c: ResourceCatalog, p: PushContext, entry: OutboxEntry, response: unknown, how: string): Promise<void> =>
  groupCommitFor(s.db).submit(async () =>
    s.db.tx(() => {
      const current = loadEntry(s.db, entry.seq);
      if (!isOpen(current)) return; // a pull adopted it meanwhile
      c.specFor(entry.operation)!.applyResult(p, current, response);
      if (entry.attempts !== current.attempts) s.db.run('UPDATE sync_outbox SET attempts = ? WHERE seq = ?', [entry.attempts, entry.seq]);
      finishEntry(s.db, entry.seq, 'done', { result: { how } });
    }),
  );

const markSent = (s: SyncSession, seq: number): Promise<void> =>
  groupCommitFor(s.db).submit(async () => markInflight(s.db, seq, s.remote.serverNow(), s.createQuietMs));

/** Ids a NOT_FOUND names (its ResourceInfo detail lists them comma-separated). */
function missingIds(e: unknown): string[] {
  const details = (e as { details?: { '@type'?: string; resourceName?: string }[] }).details ?? [];
  const info = details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ResourceInfo');
  return info?.resourceName
    ? info.resourceName
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : [];
}

/**
 * Fails an entry. A refused write (`refused`: its targets) leaves the copy here ahead of the remote: its records
 * are noted in the same transaction to be read again (refetch.ts), and the history logs it appended here go (the
 * change they tell of did not happen; should a Retry land it, the remote writes its own, which the pull brings).
 * A refused create keeps its logs: its record exists only here, and they are part of it.
 */
function fail(
  s: SyncSession,
  c: ResourceCatalog,
  entry: OutboxEntry,
  code: number | null,
  message: string,
  refused?: readonly Target[],
): Outcome {
  s.db.tx(() => {
    if (refused) {
      noteRefetch(c, s.db, refused);
      if (entry.createdIds.length === 0) c.deleteSideEffects(s.db, entry.sideEffectLogIds);
    }
    finishEntry(s.db, entry.seq, 'failed', { code: code ?? undefined, message });
  });
  s.progress.failed++;
  s.event({ type: 'entry-failed', seq: entry.seq, operation: entry.operation, message });
  return 'failed';
}

/** fail, as refused, then the remote's version of its records taken back at once (else at the next pull). */
async function failRefused(
  s: SyncSession,
  c: ResourceCatalog,
  p: PushContext,
  entry: OutboxEntry,
  code: number | null,
  message: string,
): Promise<Outcome> {
  const targets = targetsOf(s.db, entry.seq);
  const outcome = fail(s, c, entry, code, message, targets);
  await refetchNoted(
    s,
    c,
    p.call,
    targets.map((t) => t.recordId),
  );
  return outcome;
}

/** The operations of the table that are Outpost extensions (the platform may lack them). */
const extensions = new Set(operationList.filter((o) => o.extension).map((o) => o.name));

/**
 * Why the remote refused an Outpost extension operation, when it does not offer it at all: grpc-gateway answers an
 * unmatched route with 404 "Not Found" (a 404 without a status body arrives as "HTTP 404"); a missing record's 404
 * names the record instead. Undefined: an ordinary error (and always for the platform's own operations).
 */
function extensionMissing(c: ResourceCatalog, operation: string, e: unknown): string | undefined {
  if (!extensions.has(operation) || !(e instanceof ApiError)) return undefined;
  if (e.code !== Code.UNIMPLEMENTED && !(e.code === Code.NOT_FOUND && /^(not found|HTTP 404)$/i.test(e.message))) return undefined;
  const what = c.resources.find((r) => r.specs.some((spec) => spec.operation === operation))?.name ?? operation;
  return `the remote does not support ${what} (${operation}: ${e.message}); this stays local and is sent once the remote supports ${what}`;
}

/**
 * The remote does not offer the entry's operation at all (extensionMissing; e.g. the platform has no artifact
 * routes): nothing was created, so the entry goes back to pending with the message, and the rest of this run holds
 * that operation's entries without sending them (one probe per operation and run, no retry storm).
 */
function hold(s: SyncSession, entry: OutboxEntry, message: string, learned = false): Outcome {
  if (learned && !s.features.unsupported.has(entry.operation)) {
    s.features.unsupported.set(entry.operation, message);
    s.event({ type: 'warning', message });
  }
  s.db.run(`UPDATE sync_outbox SET state = 'pending', last_error = ? WHERE seq = ? AND state IN ${OPEN_STATES}`, [message, entry.seq]);
  return 'held';
}

async function pushEntry(s: SyncSession, c: ResourceCatalog, p: PushContext, seq: number): Promise<Outcome> {
  let entry = loadEntry(s.db, seq);
  if (!isOpen(entry)) return 'settled';
  const spec = c.specFor(entry.operation);
  if (!spec) return fail(s, c, entry, null, `${entry.operation} is not replicated by this version of Outpost`);
  const unsupported = s.features.unsupported.get(entry.operation);
  if (unsupported !== undefined) return hold(s, entry, unsupported);

  // A record this entry refers to was created offline by an entry that failed: this one cannot succeed either.
  const own = new Set(entry.createdIds.map((c) => c.id));
  // (Once every id it refers to is mapped, or its own, the mapping no longer changes: read once for every attempt.)
  const ids = idStates(s.db, entry.request);
  for (const dep of ids.unmapped) {
    if (own.has(dep.localId)) continue;
    const creator = loadEntry(s.db, dep.createdBySeq);
    if (creator && (creator.state === 'failed' || creator.state === 'superseded')) {
      return fail(
        s,
        c,
        entry,
        null,
        `depends on #${creator.seq} (${creator.operation}), which failed: ${creator.lastError ?? creator.state}`,
      );
    }
    const held = creator && s.features.unsupported.get(creator.operation);
    if (held) return hold(s, entry, `waits for #${creator.seq} (${creator.operation}): ${held}`);
    if (creator && creator.seq !== entry.seq) return 'deferred';
  }

  let unknownOutcome = entry.attempts > 0;
  for (let attempt = 0; ; attempt++) {
    s.throwIfAborted();
    const sentIn = s.pushWindow.epoch;
    try {
      if (spec.create && unknownOutcome) {
        // The earlier send may still be on its way (a slow proxy, a request written just before a crash):
        // look only once it can no longer land, or a late original would duplicate our retry.
        const sentAt = lastSentAt(s.db, entry.seq);
        if (sentAt !== undefined) {
          const wait = sentAt + s.createQuietMs - Date.now();
          if (wait > 0) await sleep(Math.min(wait, s.createQuietMs), s.signal);
        }
        const found = await spec.create.find(p, entry);
        if (found) {
          await complete(s, c, p, entry, found, 'found after unknown outcome');
          s.progress.recovered++;
          return 'done';
        }
      }
      const request = spec.encode(replaceIds(entry.request, ids.mapped), entry);
      // A create is marked in flight (committed) before it leaves: after a crash its outcome is looked up, never
      // guessed. Other writes are idempotent and simply resent; their attempts are counted at completion.
      if (spec.create) await markSent(s, entry.seq);
      entry = { ...entry, attempts: entry.attempts + 1, firstSentServerTime: entry.firstSentServerTime ?? s.remote.serverNow() };
      // (A spec may send more than one request for its write: its transfer, see spec.ts.)
      const response = spec.transfer ? await spec.transfer.send(p, request, entry) : await p.call(entry.operation, request);
      await complete(s, c, p, entry, response, 'sent');
      return 'done';
    } catch (e) {
      if (s.signal?.aborted) throw s.signal.reason;
      const unsupportedMessage = extensionMissing(c, entry.operation, e);
      if (unsupportedMessage !== undefined) return hold(s, entry, unsupportedMessage, true);
      const f = classifyPush(e);
      if (isOverload(f)) s.pushWindow.overloaded(sentIn);
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
        case 'notFound': {
          // An all-or-nothing batch goes again without the ids the remote did not find (null: none left).
          const batch = typeof spec.notFound === 'object' ? spec.notFound : undefined;
          const missing = batch ? missingIds(e) : [];
          const next: unknown = batch && missing.length ? batch.without(entry.request, missing) : undefined;
          if (next !== undefined && next !== null) {
            setRequest(s.db, entry.seq, next);
            entry = { ...entry, request: next };
            continue;
          }
          if (next === null || spec.notFound === 'done') {
            await complete(s, c, p, entry, undefined, 'already gone');
            return 'done';
          }
          // The record is gone remotely: keep the local copy (the pulls that remove what the remote deleted leave it
          // while the conflict is open: conflicts.ts keptAfterRemoteDeletion), tell the user.
          const kept = s.db.tx(() => {
            let n = 0;
            for (const t of targetsOf(s.db, entry!.seq)) {
              const snapshot = t.fields.includes('*create') ? undefined : c.snapshot(s.db, t.resource, t.recordId);
              if (!snapshot) continue;
              recordConflict(s.db, {
                kind: 'remote_missing',
                resource: t.resource,
                recordId: t.recordId,
                field: '*',
                winner: 'local',
                localValue: snapshot.fields,
                remoteValue: null,
                localTime: entry!.localTime,
                remoteTime: nowMicros(),
                message: `${entry!.operation}: ${f.message}`,
              });
              n++;
            }
            return n;
          });
          return fail(s, c, entry, f.code, `not found on the remote${kept ? ' (kept locally; see conflicts)' : ''}: ${f.message}`);
        }
        case 'exists': {
          // 409 on a create: it already exists there; adopt it.
          if (spec.create) {
            const found = await spec.create.find(p, entry).catch(() => undefined);
            if (found) {
              await complete(s, c, p, entry, found, 'adopted existing');
              return 'done';
            }
          }
          return failRefused(s, c, p, entry, f.code, f.message);
        }
        case 'rejected':
          return failRefused(s, c, p, entry, f.code, f.message);
      }
    }
  }
}

/** Most records in one batch request (the API's batch form takes up to 1000 ids). */
const MAX_BATCH = 1000;

/** Pushes a group of entries of one batchable operation (spec.batch) as one request; anything but success or a transient failure falls back to one by one. */
async function pushBatch(s: SyncSession, c: ResourceCatalog, p: PushContext, seqs: readonly number[]): Promise<Outcome[]> {
  const live = seqs.map((seq) => loadEntry(s.db, seq)).filter(isOpen);
  const batch = c.specFor(live[0]?.operation ?? '')?.batch;
  const ids = live.map((e) => batch!.idOf(translateIds(s.db, e.request)));
  const oneByOne = async () => {
    const out: Outcome[] = [];
    for (const e of live) out.push(await pushEntry(s, c, p, e.seq));
    return out;
  };
  if (live.length < 2 || unmappedIds(s.db, ids).length > 0) return oneByOne();
  for (let attempt = 0; ; attempt++) {
    s.throwIfAborted();
    const sentIn = s.pushWindow.epoch;
    try {
      const res = await p.call(batch!.operation, batch!.request(ids));
      const resultOf = batch!.results(res);
      await Promise.all(live.map((e, i) => complete(s, c, p, { ...e, attempts: e.attempts + 1 }, resultOf(ids[i]), 'sent in a batch')));
      return live.map(() => 'done');
    } catch (e) {
      if (s.signal?.aborted) throw s.signal.reason;
      const f = classifyPush(e);
      if (isOverload(f)) s.pushWindow.overloaded(sentIn);
      if (f.kind === 'auth') throw new AuthError(f.message, f.code);
      if (f.kind !== 'transient') return oneByOne();
      s.progress.retries++;
      if (attempt + 1 >= s.retry.maxAttempts) {
        s.lastTransient = f.message;
        return live.map(() => 'deferred');
      }
      await sleep(backoffDelay(s.retry, attempt, f.retryAfterMs), s.signal);
    }
  }
}

/** Ids an entry touches: records it targets (`targets`: read for a batch of entries) or creates and every id its request mentions. */
function keysOf(entry: OutboxEntry, targets: readonly { recordId: string }[]): string[] {
  const keys = collectIds(entry.request);
  for (const t of targets) keys.add(t.recordId);
  for (const c of entry.createdIds) keys.add(c.id);
  return [...keys];
}

/**
 * keysOf for a batch of entries, with their targets read in one query. A record created offline is named by its
 * local id in entries made before its create landed and by the remote id in later ones: both become the local id,
 * so those entries still wait for one another.
 */
function keysOfMany(s: SyncSession, entries: readonly OutboxEntry[]): Map<number, string[]> {
  const targets = targetsOfMany(
    s.db,
    entries.map((e) => e.seq),
  );
  const keys = new Map(entries.map((e) => [e.seq, keysOf(e, targets.get(e.seq) ?? [])]));
  const localOf = localIdsOf(s.db, new Set([...keys.values()].flat()));
  if (localOf.size) for (const [seq, list] of keys) keys.set(seq, [...new Set(list.map((k) => localOf.get(k) ?? k))]);
  return keys;
}

/** How far past the first waiting entry the scheduler looks for independent work. */
const LOOKAHEAD = 256;

/**
 * A push that runs long reads again, now and then, the lists whose records still have edits waiting
 * (runSync.ts): the API has no conditional update, so a remote edit made since the last read would be
 * overwritten by ours with no conflict recorded. Before each read the requests on their way are let land
 * (a merge must not change an entry whose request has left); entries the merge settled are not sent.
 */
export interface PushRereads {
  readonly everyMs: number;
  reread(): Promise<void>;
}

export async function push(s: SyncSession, c: ResourceCatalog, rereads?: PushRereads): Promise<PushResult> {
  // Thousands of small completion commits: checkpoint rarely while they run (walCheckpoints.ts).
  const restoreCheckpoints = widenCheckpoints(s.db);
  try {
    return await pushAll(s, c, rereads);
  } finally {
    restoreCheckpoints();
  }
}

async function pushAll(s: SyncSession, c: ResourceCatalog, rereads: PushRereads | undefined): Promise<PushResult> {
  const p = pushContext(s, c);
  const result: PushResult = { pushed: 0, failed: 0, deferred: 0, held: 0 };
  const running = new Map<number, { keys: string[]; promise: Promise<void> }>();
  const keyCache = new Map<number, string[]>();
  let stop: unknown;
  let deferred = false;
  let after = 0;
  let exhausted = false;
  // Open entries not started yet, in seq order.
  let queue: OutboxEntry[] = [];
  let rereadAt = rereads ? Date.now() + rereads.everyMs : Infinity;
  let sentSinceRead = false;

  const launch = (entries: readonly OutboxEntry[], keys: string[]) => {
    const seqs = entries.map((e) => e.seq);
    const work = seqs.length === 1 ? pushEntry(s, c, p, seqs[0]).then((o) => [o]) : pushBatch(s, c, p, seqs);
    const promise = work
      .then((outcomes) => {
        for (const outcome of outcomes) {
          if (outcome === 'done') {
            s.pushWindow.succeeded();
            result.pushed++;
            s.progress.pushed++;
          } else if (outcome === 'failed') result.failed++;
          else if (outcome === 'held') result.held++;
          else if (outcome === 'settled') continue;
          else {
            result.deferred++;
            deferred = true;
          }
        }
        s.tick();
      })
      .catch((e) => {
        stop ??= e;
      })
      .finally(() => {
        running.delete(seqs[0]);
        for (const seq of seqs) keyCache.delete(seq);
      });
    running.set(seqs[0], { keys, promise });
    sentSinceRead = true;
  };

  for (;;) {
    // Time to read again: start nothing more until what is on its way has landed. (At least one round of
    // entries starts between two reads, however slow the reads are.)
    const rereadDue = sentSinceRead && Date.now() >= rereadAt && (queue.length > 0 || !exhausted);
    if (stop === undefined && !deferred && !rereadDue) {
      if (queue.length < LOOKAHEAD && !exhausted) {
        const more = openEntries(s.db, after, 500);
        if (more.length === 0) exhausted = true;
        else {
          after = more[more.length - 1].seq;
          queue.push(...more);
          for (const [seq, keys] of keysOfMany(s, more)) keyCache.set(seq, keys);
        }
      }
      // Start entries in seq order while the window has room; an entry sharing an id with a running
      // or an earlier waiting entry waits (per-record order and dependencies), later independent ones may go.
      const blocked = new Set<string>();
      for (const r of running.values()) for (const k of r.keys) blocked.add(k);
      const waiting: OutboxEntry[] = [];
      // Free entries of a batchable operation (archives, unarchives) join one batch per operation this round.
      const batches = new Map<string, { entries: OutboxEntry[]; keys: string[] }>();
      let slots = s.pushWindow.size - running.size;
      let i = 0;
      for (; i < queue.length && i < LOOKAHEAD + MAX_BATCH && slots > 0; i++) {
        const entry = queue[i];
        const keys = keyCache.get(entry.seq)!;
        const free = !keys.some((k) => blocked.has(k));
        for (const k of keys) blocked.add(k);
        if (!free) {
          waiting.push(entry);
          continue;
        }
        if (c.specFor(entry.operation)?.batch) {
          const batch = batches.get(entry.operation);
          if (batch && batch.entries.length < MAX_BATCH) {
            batch.entries.push(entry);
            batch.keys.push(...keys);
            continue;
          }
          if (!batch) {
            batches.set(entry.operation, { entries: [entry], keys: [...keys] });
            slots--;
            continue;
          }
        }
        if (i >= LOOKAHEAD) {
          waiting.push(entry);
          continue;
        }
        launch([entry], keys);
        slots--;
      }
      for (const b of batches.values()) launch(b.entries, b.keys);
      queue = [...waiting, ...queue.slice(i)];
    }
    if (running.size === 0) {
      if (stop !== undefined || deferred) break;
      if (rereadDue) {
        await rereads!.reread();
        if (queue.length) {
          const open = openAmong(
            s.db,
            queue.map((e) => e.seq),
          );
          queue = queue.filter((e) => open.has(e.seq));
        }
        rereadAt = Date.now() + rereads!.everyMs;
        sentSinceRead = false;
        continue;
      }
      if (queue.length === 0 && exhausted) break;
      continue;
    }
    await Promise.race([...running.values()].map((r) => r.promise));
  }
  if (stop !== undefined) throw stop;
  return result;
}
