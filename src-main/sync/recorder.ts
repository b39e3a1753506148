// Records replicated writes in the outbox: the WriteRecorder that invoke()
// calls on a sync replica (sync's part of the engine: replica.ts). The write
// runs and its entry (operation, validated request, the records and fields it
// changed, their merge base) is appended in the same transaction.
import { ApiError } from '../../src-shared/errors';
import type { Db } from '../db/database';
import type { RequestContext, WriteRecorder } from '../engine';
import { isPromise } from '../services/common/handler';
import { withWriteListener } from '../services/common/writeScope';
import type { ResourceCatalog } from './catalog';
import { isUnmappedLocalId, translateIds } from './idMap';
import { hasPending, localClock } from './outbox';
import type { OpSpec } from './spec';
import type { CreatedRef, Target } from './types';

/** The remote state of a record about to be edited, kept while it has pending edits (the merge base). */
function ensureBase(catalog: ResourceCatalog, db: Db, t: Target): number | null {
  const existing = db.get<{ remote_version: number }>('SELECT remote_version FROM sync_base WHERE resource = ? AND record_id = ?', [
    t.resource,
    t.recordId,
  ]);
  if (existing) return existing.remote_version;
  if (isUnmappedLocalId(db, t.recordId)) return null;
  if (hasPending(db, t.resource, t.recordId)) return null;
  const snap = catalog.snapshot(db, t.resource, t.recordId);
  if (!snap) return null;
  db.run('INSERT INTO sync_base(resource, record_id, remote_version, fields) VALUES (?, ?, ?, ?)', [
    t.resource,
    t.recordId,
    snap.version,
    JSON.stringify(snap.fields),
  ]);
  return snap.version;
}

function mergeTargets(list: readonly Target[]): Target[] {
  const byKey = new Map<string, Target>();
  for (const t of list) {
    const key = `${t.resource}\u0000${t.recordId}`;
    const prev = byKey.get(key);
    byKey.set(key, prev ? { ...prev, fields: [...new Set([...prev.fields, ...t.fields])] } : t);
  }
  return [...byKey.values()];
}

/**
 * The records a create made of its own record's kind (the first it names) that keep a merge base: pending as a whole
 * (`*create`) until the remote has them. (Not the parts it made with them, an import's steps, nor records without a
 * three-way merge: a log, a file, an artifact version.)
 */
function newRecordTargets(catalog: ResourceCatalog, created: readonly CreatedRef[]): Target[] {
  const own = created[0]?.resource;
  if (own === undefined || !catalog.kind(own)?.merge) return [];
  return created.filter((c) => c.resource === own).map((c) => ({ resource: own, recordId: c.id, fields: ['*create'] }));
}

/** What a write changes before it runs: its targets and their merge bases (taken before the write). */
function beforeWrite(catalog: ResourceCatalog, db: Db, spec: OpSpec, request: unknown) {
  const before = spec.targets(request);
  const bases = new Map<string, number | null>();
  for (const t of before) bases.set(`${t.resource}\u0000${t.recordId}`, ensureBase(catalog, db, t));
  const sideEffectMarks = catalog.markSideEffects(db);
  return { before, bases, sideEffectMarks };
}

/** Appends the entry of a write that just ran (inside the write's transaction). */
function appendEntry(
  catalog: ResourceCatalog,
  ctx: RequestContext,
  spec: OpSpec,
  name: string,
  request: unknown,
  response: unknown,
  prior: ReturnType<typeof beforeWrite>,
): void {
  const { before, bases, sideEffectMarks } = prior;
  // (`db`: a write may create more than its response names, e.g. an import's steps and measurements.)
  const created = spec.create?.created(request, response, ctx.db) ?? [];
  const targets = mergeTargets([...before, ...newRecordTargets(catalog, created)]);
  const createdIds = new Set(created.map((c) => c.id));
  // Records the write appended as a side effect (history of a create/update): the remote writes its own.
  const sideEffects = catalog.sideEffectsSince(ctx.db, sideEffectMarks).filter((id) => !createdIds.has(id));
  const stored = spec.transfer ? spec.transfer.stored(ctx, request, response) : request;
  const info = ctx.db.run(
    'INSERT INTO sync_outbox(operation, request, created_ids, side_effect_log_ids, local_time) VALUES (?, ?, ?, ?, ?)',
    [name, JSON.stringify(stored), JSON.stringify(created), JSON.stringify(sideEffects), localClock()],
  );
  const seq = Number(info.lastInsertRowid);
  for (const t of targets) {
    const key = `${t.resource}\u0000${t.recordId}`;
    const base = bases.has(key) ? bases.get(key)! : ensureBase(catalog, ctx.db, t);
    ctx.db.run('INSERT OR IGNORE INTO sync_outbox_targets(seq, resource, record_id, fields, base_version) VALUES (?, ?, ?, ?, ?)', [
      seq,
      t.resource,
      t.recordId,
      JSON.stringify(t.fields),
      base,
    ]);
  }
  for (const c of created) {
    ctx.db.run('INSERT OR IGNORE INTO sync_id_map(local_id, resource, remote_id, created_by_seq) VALUES (?, ?, NULL, ?)', [
      c.id,
      c.resource,
      seq,
    ]);
  }
  takeCreateBases(catalog, ctx.db, created, 'keep');
}

/**
 * The base of an offline-created record is what its create sends: later remote edits of the copy it makes are then
 * detected like any other. Taken when the create is recorded, and again (`replace`) when a refused create is retried:
 * it goes as its record is now, and the base was dropped with the refusal (no edit of the record was left open).
 */
export function takeCreateBases(catalog: ResourceCatalog, db: Db, created: readonly CreatedRef[], existing: 'keep' | 'replace'): void {
  for (const c of created) {
    const snap = catalog.snapshot(db, c.resource, c.id);
    if (!snap) continue;
    db.run(
      `INSERT OR ${existing === 'keep' ? 'IGNORE' : 'REPLACE'} INTO sync_base(resource, record_id, remote_version, fields) VALUES (?, ?, 0, ?)`,
      [c.resource, c.id, JSON.stringify(snap.fields)],
    );
  }
}

/**
 * An asynchronous write (awaits before its one write transaction) reports its response from inside that
 * transaction (services/common/writeScope.ts): the entry is appended right there, so it commits or rolls back with
 * the write. Its merge bases are taken at that point too, after the write: right for the async writes there
 * are (creates, and a new artifact version, which changes none of its artifact's merged fields).
 */
async function recordAsyncWrite(
  catalog: ResourceCatalog,
  ctx: RequestContext,
  spec: OpSpec,
  name: string,
  request: unknown,
  call: () => unknown,
): Promise<unknown> {
  let recorded = false;
  const response = await withWriteListener((reported) => {
    if (recorded) throw ApiError.internal(`${name}: a replicated write must report itself once`);
    appendEntry(catalog, ctx, spec, name, request, reported, beforeWrite(catalog, ctx.db, spec, request));
    recorded = true;
  }, call);
  if (!recorded) throw ApiError.internal(`${name}: a replicated asynchronous write must report itself from its transaction`);
  return response;
}

export function createOutboxRecorder(db: Db, catalog: ResourceCatalog): WriteRecorder {
  return {
    translate: (_name, request) => translateIds(db, request),
    records: (name) => catalog.specFor(name) !== undefined,
    run(ctx: RequestContext, name: string, request: unknown, call: () => unknown) {
      const spec = catalog.specFor(name)!;
      if (spec.transfer?.asyncWrite) return recordAsyncWrite(catalog, ctx, spec, name, request, call);
      return ctx.db.tx(() => {
        const prior = beforeWrite(catalog, ctx.db, spec, request);
        const response = call();
        if (isPromise(response)) throw ApiError.internal(`${name}: a replicated write must run synchronously`);
        appendEntry(catalog, ctx, spec, name, request, response, prior);
        return response;
      });
    },
  };
}
