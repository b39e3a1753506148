// How one replicated operation is recorded and pushed (OpSpec), and what the
// push loop gives it (PushContext). Every resource declares its specs in its
// descriptor (resources/<resource>/descriptor.ts).
import type { OperationName } from '../../src-shared/operations';
import type { Db } from '../db/database';
import type { RequestContext } from '../engine';
import type { Applier } from './apply';
import type { IdRewriters } from './idMap';
import type { CreatedRef, OutboxEntry, Target } from './types';
import type { RemoteCall, StoredRequest, WireRequest, WireResponse } from './wireTypes';

export type { RemoteCall, StoredRequest, WireRequest, WireResponse } from './wireTypes';

/** An outbox entry of operation K, whose request the outbox keeps as `Stored`. */
export type EntryOf<Stored> = Omit<OutboxEntry, 'request'> & { request: Stored };

/** What the push loop gives an operation spec. */
export interface PushContext {
  readonly db: Db;
  /** Calls one operation on the remote (no retries; the push loop retries). */
  readonly call: RemoteCall;
  /** Our user on the remote. */
  readonly userId: string;
  /** Latest estimate of the server clock (epoch micros). */
  serverNow(): number;
  /** Local clock -> server clock correction for conflict ordering (micros; 0 when the skew is negligible). */
  readonly clockOffset: number;
  /** Applies remote records to the local store (same merge rules as pull). */
  readonly apply: Applier;
  /** Rewrites local references when a create's remote id arrives (mapLocalId). */
  readonly idRewriters: IdRewriters;
  /** What the remote turned out to support (learned once per session). */
  readonly features: RemoteFeatures;
}

export interface RemoteFeatures {
  /** Whether the remote accepted a CEL filter, per list operation and filter kind (absent until tried). */
  readonly celFilter: Map<string, boolean>;
  /** Operations the remote turned out not to offer at all, with the message kept on their entries (push.ts: hold). */
  readonly unsupported: Map<string, string>;
}

/**
 * How single-record writes of one operation travel together as one batch request (the API's batch form; push.ts):
 * `Stored`, a single entry's request; B, the batch operation; `Result`, what the single operation would have answered.
 */
export interface BatchForm<Stored = unknown, B extends OperationName = OperationName, Result = unknown> {
  /** The batch operation. */
  readonly operation: B;
  /** The record a single entry's request names (its ids translated). */
  idOf(request: Stored): string;
  /** The batch request for these records. */
  request(ids: readonly string[]): WireRequest<B>;
  /** The batch's response split per record, each as the single operation would have answered. */
  results(response: WireResponse<B>): (id: string) => Result;
}

/**
 * How one replicated operation is recorded and pushed, as the generic core sees every spec (erased: the request and
 * response types of each operation are checked where its spec is written, by defineSpec).
 */
export interface OpSpec {
  readonly operation: string;
  /** `create`: the remote makes a new record (unknown outcomes need a lookup before retrying). */
  readonly kind: 'create' | 'write';
  /** Records the write changes that exist before it runs (read from the validated request). */
  targets(request: unknown): Target[];
  /** Records the write created (read from its response; from the store, in the write's transaction, for those it does not name). */
  created?(request: unknown, response: unknown, db: Db): CreatedRef[];
  /** Targets that only exist after the write (e.g. the record a new history entry changed). */
  targetsAfter?(request: unknown, response: unknown): Target[];
  /**
   * The handler is asynchronous (awaits before its one write transaction): the entry is appended when the
   * write reports itself from inside that transaction (services/common/writeScope.ts), so it stays atomic with it.
   */
  readonly asyncWrite?: boolean;
  /** The request as kept in the outbox, when it differs from the validated one (e.g. an upload's temp file -> its durable copy). Runs in the write's transaction. */
  storedRequest?(ctx: RequestContext, request: unknown, response: unknown): unknown;
  /**
   * The remote has no such operation at all (e.g. the platform lacks an Outpost extension): the message
   * kept on the entry, which then stays pending without blocking the others (push.ts). Undefined: an ordinary error.
   */
  unsupportedBy?(error: unknown): string | undefined;
  /** The wire request sent to the remote (or what the spec's own send makes it of). */
  encode(request: unknown, entry: OutboxEntry): Record<string, unknown>;
  /**
   * Sends the encoded request (default: one call of the entry's operation). For a write that needs more
   * than one request (an import, then the listing of what it created); every failure counts as an unknown
   * outcome of the whole write, so a create resolves it with findExisting before any resend.
   */
  send?(p: PushContext, request: Record<string, unknown>, entry: OutboxEntry): Promise<unknown>;
  /** For creates: finds what an earlier attempt whose outcome is unknown may have created. */
  findExisting?(p: PushContext, entry: OutboxEntry): Promise<unknown>;
  /** The remote accepted (or an earlier attempt was found): map ids, apply the remote state. Runs inside the local transaction that marks the entry done. */
  applyResult(p: PushContext, entry: OutboxEntry, response: unknown): void;
  /** A 404 from the remote: `done` when that is the desired end state (deletes), else a conflict is recorded. */
  readonly notFoundIsDone?: boolean;
  /** A batch refused with 404 for some of its ids: the request without them (null: nothing left), sent again. */
  withoutMissing?(request: unknown, missing: readonly string[]): unknown;
  /** The remote won `field` of `recordId` in a conflict: the request without it, or null when nothing is left to send. */
  dropField?(request: unknown, recordId: string, field: string): unknown;
  /** Entries of this operation on different records may be sent together (push.ts pushBatch). */
  readonly batch?: BatchForm;
}

/**
 * One operation's spec, typed from the operation table: K's validated request (`Stored`: the form the outbox keeps
 * when the spec changes it, storedRequest), K's wire request and response, and what its send or lookup gives
 * applyResult (`Result`). A wire field renamed in the table is then a compile error here, not a fuzzer failure.
 * `Encoded`: what encode gives a spec's own send when that is not yet the wire request (an upload names its file in
 * the content store; send makes the wire request of it).
 */
export interface Spec<K extends OperationName, Result = WireResponse<K>, Stored = StoredRequest<K>, Encoded = WireRequest<K>> {
  readonly operation: K;
  readonly kind: 'create' | 'write';
  targets(request: StoredRequest<K>): Target[];
  created?(request: StoredRequest<K>, response: WireResponse<K>, db: Db): CreatedRef[];
  targetsAfter?(request: StoredRequest<K>, response: WireResponse<K>): Target[];
  readonly asyncWrite?: boolean;
  storedRequest?(ctx: RequestContext, request: StoredRequest<K>, response: WireResponse<K>): Stored;
  unsupportedBy?(error: unknown): string | undefined;
  encode(request: Stored, entry: EntryOf<Stored>): Encoded;
  send?(p: PushContext, request: Encoded, entry: EntryOf<Stored>): Promise<Result>;
  findExisting?(p: PushContext, entry: EntryOf<Stored>): Promise<Result | undefined>;
  applyResult(p: PushContext, entry: EntryOf<Stored>, response: Result): void;
  readonly notFoundIsDone?: boolean;
  withoutMissing?(request: Stored, missing: readonly string[]): Stored | null;
  dropField?(request: Stored, recordId: string, field: string): Stored | null;
  readonly batch?: BatchForm<Stored>;
}

/** A spec checked against the operation table, as the core holds it (OpSpec). */
export function defineSpec<K extends OperationName, Result = WireResponse<K>, Stored = StoredRequest<K>, Encoded = WireRequest<K>>(
  spec: Spec<K, Result, Stored, Encoded>,
): OpSpec {
  // (The erasure: the core passes each spec only its own operation's requests, responses and entries.)
  return spec as unknown as OpSpec;
}
