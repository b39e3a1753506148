// Pull: per resource, incremental with a compound cursor (modified_date, id)
// in server time. Each page is applied and the cursor advanced in one local
// transaction, so a crash resumes where the last committed page ended. Every
// incremental pull re-reads an overlap window before the cursor (late commits,
// equal timestamps across page boundaries); upserts make re-reads harmless.
//
// Listing "changed since" needs a CEL filter (`modified_date >= timestamp(..)`).
// A remote without filters is still pulled correctly: newest-first by
// modified_date down to the overlap floor (cursor saved at the end), or for
// lists without order_by a full scan skipping rows below the floor.
//
// The shape a resource declares (its descriptor's `pullers`): each Puller names
// its list operation, its items' ids, where those ids may collide with records
// made here, its request variants, when it is read again in a run (readAgain)
// and how a page is applied; how it is read is one named, required part:
// `ChangedSince` a cursor (modified_date, or created_date for append-only
// lists; optionally bulk-loaded on the first pull) or `ListedWhole` (small
// lists, or lists the remote cannot filter by date; `settle` then sees every
// id listed, e.g. removeUnlisted for hard deletions upstream) or a
// `DeletionCheck` (a list read whole now and then for deletions that leave no
// trace: deletions.ts).
import { formatTimestamp } from '../../src-shared/api/time';
import { ApiError, Code } from '../../src-shared/errors';
import { beginBulkLoad, restoreIndexes, restoreIndexesGradually, type BulkLoadOptions, type LoadedIds } from '../db/bulkLoad';
import { withoutCommitSync, withoutForeignKeyChecks, type Db } from '../db/database';
import { wireMicros } from './time';
import { Remote } from './remote';
import { AuthError, backoffDelay, classify, sleep } from './retry';
import type { SyncSession } from './session';
import { filterUnsupported, itemsOf, listPages, tokenOf } from './remoteQuery';
import type { OperationName } from '../../src-shared/operations';
import type { WireRequest, WireResponse } from './wireTypes';
import { widenCheckpoints } from './walCheckpoints';
import { compact } from './wireEncode';
import { withoutIdCollisions, type CollisionCheck } from './collisions';
import { changeFeedFor } from '../services/changeFeed';

/**
 * One list a resource reads from the remote. How it is read is one named part (`listing`): changed since a cursor,
 * or listed whole. Everything else is what every list has: its operation, its items' ids, where those ids may
 * collide with records made here, its request variants and how a page is applied.
 */
export interface Puller<T = unknown, Prepared = unknown> {
  /** Cursor key and progress label. */
  readonly resource: string;
  /** The list operation of the operation table. */
  readonly operation: string;
  /** Response member holding the page's items. */
  readonly listField: string;
  readonly listing: ChangedSince | ListedWhole | DeletionCheck;
  readonly readAgain: ReadAgain;
  /**
   * The table holding this puller's records by `id` and `organization_id`, and their record kind: a pulled id held
   * there by a record the remote never sent is a collision, kept apart and logged (collisions.ts). Null: the list's
   * records hold no organization (users), or the puller applies nothing (a deletion check).
   */
  readonly collisions: CollisionCheck<T> | null;
  idOf(item: T): string;
  /**
   * Request variants (e.g. one per organization); each keeps its own cursor. A variant's `pageSize` is the most the
   * list serves per page (ListPolicies: 100); a run asking for smaller pages asks for those.
   */
  variants(s: SyncSession): Record<string, unknown>[];
  /** Remote lookups a page needs before its transaction (parents of logs); what it returns travels to `apply` with the page. */
  prepare?(s: SyncSession, items: T[]): Promise<Prepared>;
  /**
   * Applies one page; runs inside the page's transaction. Returns the records inserted or changed here (an
   * unchanged re-read, e.g. in the overlap window, counts 0): what progress reports as pulled. `loaded`: the ids an
   * initial bulk load wrote (ChangedSince.bulkLoad). `prepared`: what `prepare` returned for the page (whose items
   * may since have lost id collisions: collisions.ts).
   */
  apply(s: SyncSession, items: T[], variant: Record<string, unknown>, loaded?: LoadedIds, prepared?: Prepared): number;
}

/**
 * When a list is read again in a run, besides before the push: never; after the push (the remote's side effects of
 * our writes: history logs, modified dates); or, while edits of a kind of record wait, also right before the push and
 * during a long one (the API has no conditional update: a remote edit made since the last read would be overwritten
 * without a conflict), and after it.
 */
export type ReadAgain = 'never' | 'afterPush' | { readonly whileEditsOf: string };

/**
 * Incremental: a cursor on `by` (modified_date; created_date for append-only lists) in server time. Items carry the
 * field in its wire form (`modifiedDate`, `createdDate`).
 */
export interface ChangedSince {
  readonly by: 'modified_date' | 'created_date';
  /** Whether the list accepts order_by on `by` (else its default order must be ascending by it). */
  readonly orderable: boolean;
  /** An initial pull into these tables, while empty, defers their secondary indexes (bulkLoad.ts). */
  readonly bulkLoad?: BulkLoad;
}

/**
 * The tables an initial pull fills. The puller's apply then takes the `loaded` ids and never looks records up by id,
 * so their unique id indexes are deferred as well (the costliest index of an initial pull: random keys).
 */
export interface BulkLoad {
  readonly tables: readonly string[];
  /**
   * Secondary indexes kept during the load because pages arrive in their order (rows append at their end, which
   * costs less than the separate sort and table scan of rebuilding them afterwards).
   */
  readonly liveIndexes: readonly string[];
}

/** Small lists, or lists the remote cannot filter by date: read whole at every run (with the variant's filter). */
export interface ListedWhole {
  readonly by: 'whole';
  /**
   * After the last page, with every id the remote listed (deletions upstream leave no trace otherwise): e.g.
   * removeUnlisted, or keepUnlisted.
   */
  settle(s: SyncSession, variant: Record<string, unknown>, seen: ReadonlySet<string>): void;
}

/** ListedWhole.settle of a list whose records stay here when the remote no longer lists them. */
export const keepUnlisted = (): void => {};

/** A list read whole when a check for deletions upstream is due (deletions.ts): it applies nothing, `settle` removes. */
export interface DeletionCheck {
  readonly by: 'deletions';
  settle(s: SyncSession, variant: Record<string, unknown>, seen: ReadonlySet<string>): void;
  /**
   * A failed listing the run can do without (the remote refuses the order the check needs): the warning to give;
   * the variant is skipped (settle does not run). Undefined: the failure is the run's.
   */
  skipOn(s: SyncSession, error: unknown): string | undefined;
}

interface Cursor {
  time: number;
  id: string;
}

/** An item's cursor field (its wire form: `modified_date` -> `modifiedDate`), in epoch micros. */
const timeOf = (by: ChangedSince['by'], item: unknown) =>
  wireMicros(String((item as Record<string, unknown>)[by === 'created_date' ? 'createdDate' : 'modifiedDate'] ?? '')) ?? 0;

function loadCursor(s: SyncSession, key: string): Cursor | undefined {
  const row = s.db.get<{ modified_date: number; last_id: string }>('SELECT modified_date, last_id FROM sync_cursors WHERE resource = ?', [
    key,
  ]);
  return row && { time: row.modified_date, id: row.last_id };
}

function saveCursor(s: SyncSession, key: string, c: Cursor): void {
  s.db.run(
    `INSERT INTO sync_cursors(resource, modified_date, last_id, updated_date) VALUES (?, ?, ?, ?)
     ON CONFLICT(resource) DO UPDATE SET modified_date = excluded.modified_date, last_id = excluded.last_id, updated_date = excluded.updated_date
     WHERE (excluded.modified_date, excluded.last_id) > (sync_cursors.modified_date, sync_cursors.last_id)`,
    [key, c.time, c.id, Date.now() * 1000],
  );
}

const later = (a: Cursor | undefined, b: Cursor): Cursor => (!a || b.time > a.time || (b.time === a.time && b.id > a.id) ? b : a);

/** beginBulkLoad, then the live indexes created again at once (on empty tables; restoreIndexes skips existing ones). */
function beginLoad(db: Db, tables: readonly string[], live: readonly string[], options: BulkLoadOptions): boolean {
  const keep = live.length
    ? db.all<{ sql: string }>(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name IN (SELECT value FROM json_each(?))`, [
        JSON.stringify(live),
      ])
    : [];
  const bulk = beginBulkLoad(db, tables, options);
  if (bulk) db.tx(() => keep.forEach((ix) => db.raw.exec(ix.sql)));
  return bulk;
}

/**
 * Adds records that arrived or changed to the run's progress: a page's, or those another resource's puller
 * fetched for it (a log's missing annotation, a step's missing report).
 */
export function countPulled(s: SyncSession, resource: string, n: number): void {
  if (n) s.progress.pulled[resource] = (s.progress.pulled[resource] ?? 0) + n;
}

/**
 * Of `items` pulled by `p`, those to apply: without the ones whose ids collide with records here the remote never
 * sent (collisions.ts; each logged once). Runs inside the transaction that applies them.
 */
export function withoutCollisions<T>(s: SyncSession, p: Puller<T>, items: T[]): T[] {
  if (!p.collisions) return items;
  return withoutIdCollisions(
    s.db,
    p.collisions,
    items,
    (i) => p.idOf(i),
    s.identity.organizations.map((o) => o.id),
  );
}

/** One remote call with the session's retry policy (transient failures back off; auth failures stop the run). */
export function callWithRetry<K extends OperationName>(s: SyncSession, operation: K, request: WireRequest<K>): Promise<WireResponse<K>>;
export function callWithRetry(s: SyncSession, operation: string, request: Record<string, unknown>): Promise<unknown>;
export async function callWithRetry(s: SyncSession, operation: string, request: Record<string, unknown>): Promise<unknown> {
  return retrying(s, () => s.remote.call(operation, request));
}

export async function retrying<T>(s: SyncSession, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    s.throwIfAborted();
    try {
      return await fn();
    } catch (e) {
      if (s.signal?.aborted) throw s.signal.reason;
      const f = classify(e);
      if (f.kind === 'auth') throw new AuthError(f.message, f.code);
      if (f.kind !== 'transient' || attempt + 1 >= s.retry.maxAttempts) throw e;
      s.progress.retries++;
      await sleep(backoffDelay(s.retry, attempt, f.retryAfterMs), s.signal);
    }
  }
}

/** The remote does not offer this list (an older Outpost or platform): skip it. */
const notOffered = (e: unknown) =>
  e instanceof ApiError && (e.code === Code.UNIMPLEMENTED || (e.code === Code.NOT_FOUND && /^not found$/i.test(e.message)));

/** A list read whole: every page applied, then `settle` with every id listed. */
async function pullWhole(
  s: SyncSession,
  p: Puller,
  listing: ListedWhole | DeletionCheck,
  variant: Record<string, unknown>,
): Promise<number> {
  const pageSize = pageSizeOf(s, variant);
  const seen = new Set<string>();
  let rows = 0;
  const listWhole = async (request: Record<string, unknown>) => {
    for await (const items of listPages((op, req) => callWithRetry(s, op, req), p.operation, p.listField, { ...request, pageSize })) {
      for (const i of items) seen.add(p.idOf(i));
      rows += await applyPage(s, p, variant, items, {});
    }
  };
  try {
    await listWhole(variant);
  } catch (e) {
    // A variant's filter (e.g. one that includes archived records) on a remote without a filter engine: what it lists without.
    if (variant.filter === undefined || !filterUnsupported(e)) throw e;
    s.event({
      type: 'warning',
      message: `${p.operation}: the remote rejected the filter ${String(variant.filter)} (${(e as Error).message}); reading without it`,
    });
    await listWhole({ ...variant, filter: undefined });
  }
  s.db.tx(() => listing.settle(s, variant, seen));
  return rows;
}

const pageSizeOf = (s: SyncSession, variant: Record<string, unknown>) =>
  Math.min((variant.pageSize as number | undefined) ?? 1000, s.pageSize);

/** How one page is applied: during an initial bulk load (its `loaded` ids), and whether the cursor is saved with it. */
interface PageOptions {
  bulk?: { loaded: LoadedIds };
  cursor?: { key: string; at: Cursor | undefined };
}

/** Applies one page in one transaction (with the cursor, when given); returns the records it inserted or changed. */
async function applyPage(s: SyncSession, p: Puller, variant: Record<string, unknown>, items: unknown[], o: PageOptions): Promise<number> {
  const prepared = p.prepare && items.length ? await p.prepare(s, items) : undefined;
  let applied = 0;
  const apply = () =>
    s.db.tx(() => {
      // A bulk load fills empty tables: nothing here to collide with.
      const fresh = o.bulk ? items : withoutCollisions(s, p, items);
      applied = p.apply(s, fresh, variant, o.bulk?.loaded, prepared);
      if (o.cursor?.at) saveCursor(s, o.cursor.key, o.cursor.at);
    });
  // An initial bulk load: its pages reference parents the load itself wrote, and a lost page is pulled again.
  if (o.bulk) withoutForeignKeyChecks(s.db.raw, () => withoutCommitSync(s.db.raw, apply));
  else apply();
  // The one place a pull's writes pass: live views hear what arrived (`annotation_logs:deletions` -> `annotation_logs`).
  if (applied > 0)
    changeFeedFor(s.db).publish({ resource: p.resource.replace(/:.*$/, ''), ids: items.map((i) => p.idOf(i)), reason: 'sync' });
  // What the puller says it applied (a listing that only checks, like the log-deletion scan, applies nothing).
  countPulled(s, p.resource, applied);
  s.tick();
  return applied;
}

/** A list read by its cursor: from the start (an initial pull, bulk-loaded when declared), or changed since the cursor. */
async function pullChanged(
  s: SyncSession,
  p: Puller,
  listing: ChangedSince,
  variant: Record<string, unknown>,
  key: string,
): Promise<number> {
  const pageSize = pageSizeOf(s, variant);
  const field = listing.by;
  const at = (i: unknown): Cursor => ({ time: timeOf(field, i), id: p.idOf(i) });
  let rows = 0;
  let bulk: PageOptions['bulk'];
  const page = async (items: unknown[], cursor: Cursor | undefined) => {
    rows += await applyPage(s, p, variant, items, { bulk, cursor: { key, at: cursor } });
  };

  // Ascending scan (optionally filtered); the cursor moves with every page. The next page is
  // requested before the current one is applied, so the remote and the local store work at once.
  const ascending = async (filter: string | undefined, floor: number) => {
    const request = (pageToken: string | undefined) => {
      const req = compact({ ...variant, pageSize, pageToken, filter, orderBy: listing.orderable ? field : undefined });
      const promise = retrying(s, () => s.remote.callPage(p.operation, req));
      promise.catch(() => {}); // awaited below; not an unhandled rejection while a page is being applied
      return promise;
    };
    let next: ReturnType<typeof request> | undefined = request(undefined);
    while (next) {
      const raw: Awaited<ReturnType<typeof request>> = await next;
      // The next request leaves before this page is parsed and applied (on the token read from the text) ...
      next = raw.peekedToken ? request(raw.peekedToken) : undefined;
      const res = raw.parse();
      const items = itemsOf(res, p.listField);
      // ... and is replaced if the parsed token says otherwise.
      const token = tokenOf(res);
      if (token !== raw.peekedToken) next = token ? request(token) : undefined;
      if (next) await new Promise((r) => setImmediate(r)); // let the request leave before the synchronous apply
      const keep = floor > -Infinity ? items.filter((i) => timeOf(field, i) >= floor) : items;
      let c = items.length ? at(items[items.length - 1]) : undefined;
      if (c && !listing.orderable) for (const i of items) c = later(c, at(i));
      await page(keep, c);
    }
  };

  const cursor = loadCursor(s, key);
  if (!cursor) {
    const load = listing.bulkLoad;
    if (load && beginLoad(s.db, load.tables, load.liveIndexes, { deferUnique: true })) bulk = { loaded: new Map() };
    // A commit per page (its rows, the live indexes' tails, the cursor): checkpoint rarely (walCheckpoints.ts).
    const restoreCheckpoints = bulk ? widenCheckpoints(s.db) : () => {};
    try {
      await ascending(undefined, -Infinity);
      if (bulk) await restoreIndexesGradually(s.db, () => new Promise((r) => setImmediate(r)));
    } finally {
      if (bulk) restoreIndexes(s.db); // after a failure: at once
      bulk = undefined;
      restoreCheckpoints();
    }
    return rows;
  }
  const floor = cursor.time - s.overlap;
  const feature = `${p.operation}:${field}`;
  if (s.features.celFilter.get(feature) !== false) {
    try {
      await ascending(`${field} >= timestamp('${formatTimestamp(Math.max(0, floor))}')`, -Infinity);
      s.features.celFilter.set(feature, true);
      return rows;
    } catch (e) {
      if (!filterUnsupported(e)) throw e;
      s.features.celFilter.set(feature, false);
      s.event({
        type: 'warning',
        message: `${p.operation}: the remote rejected a ${field} filter (${(e as Error).message}); reading without it`,
      });
    }
  }
  if (!listing.orderable) {
    await ascending(undefined, floor);
    return rows;
  }
  // Newest first down to the floor; the cursor is saved once the floor is reached.
  let best: Cursor | undefined = cursor;
  let pageToken: string | undefined;
  let reached = false;
  do {
    const res = await callWithRetry(s, p.operation, compact({ ...variant, pageSize, pageToken, orderBy: `${field} desc` }));
    const items = itemsOf(res, p.listField);
    const keep = items.filter((i) => timeOf(field, i) >= floor);
    for (const i of keep) best = later(best, at(i));
    reached = keep.length < items.length;
    pageToken = tokenOf(res);
    await page(keep.reverse(), reached || !pageToken ? best : undefined);
  } while (pageToken && !reached);
  return rows;
}

export async function runPuller(s: SyncSession, p: Puller): Promise<number> {
  if (!Remote.has(p.operation)) return 0;
  const { listing } = p;
  let rows = 0;
  for (const variant of p.variants(s)) {
    const key = p.resource + (variant.organizationId ? `:${variant.organizationId as string}` : '');
    try {
      rows +=
        listing.by === 'whole' || listing.by === 'deletions'
          ? await pullWhole(s, p, listing, variant)
          : await pullChanged(s, p, listing, variant, key);
    } catch (e) {
      const skipped = listing.by === 'deletions' ? listing.skipOn(s, e) : undefined;
      if (skipped !== undefined) s.event({ type: 'warning', message: `${p.resource}: ${skipped}` });
      else if (notOffered(e)) s.event({ type: 'warning', message: `${p.resource}: the remote does not offer ${p.operation}; skipped` });
      else throw e;
    }
  }
  s.event({ type: 'pulled', resource: p.resource, rows });
  return rows;
}

/** `organizationId` only when the user belongs to several organizations (the API requires it then). */
export function perOrganization(s: SyncSession): Record<string, unknown>[] {
  const orgs = s.identity.organizations;
  return orgs.length > 1 ? orgs.map((o) => ({ organizationId: o.id })) : [{}];
}
