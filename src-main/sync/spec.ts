// How one replicated operation is recorded and pushed (OpSpec), and what the
// push loop gives it (PushContext). Every resource declares its specs in its
// descriptor (resources/<resource>/descriptor.ts). The shape:
//
//   OpSpec      every spec: its operation, the records and fields it writes
//               (targets), how it loses a field to the remote (dropField) and
//               what a 404 means (notFound), its wire request (encode), and
//               what the remote's answer does here (applyResult)
//     create?   CreateForm, for a create: the records it made, the lookup of
//               an unknown outcome before any resend, what Retry and Discard
//               do once the remote refused it (RefusedCreate)
//     transfer? Transfer, for a write whose request does not travel as it was
//               recorded (an upload, an import, a write of two calls)
//     batch?    BatchForm, for single-record writes sent together
//
// The common writes are not written out by hand: specForms.ts makes them from
// what they write (a record kind, its id member, its mask paths and the wire
// member of each). A remote without an Outpost extension operation (the
// operation table's `extension`) holds its entries (push.ts).
import type { OperationName } from '../../src-shared/operations';
import type { Db } from '../db/database';
import type { RequestContext } from '../engine';
import type { Applier } from './apply';
import type { IdRewriters } from './idMap';
import type { CreatedRef, OutboxEntry, Target } from './types';
import type { RemoteCall, StoredRequest, WireRequest, WireResponse } from './wireTypes';

export type { RemoteCall, StoredRequest, WireRequest, WireResponse } from './wireTypes';

/** Work for after a discard's transaction has committed (removing files). */
export type AfterCommit = () => void;

/** The records the sync view can see and give up, by kind (sync/operations/localRecords.ts). */
export interface HeldRecords {
  heldHere(resource: string, id: string): boolean;
  /** Deletes the held records `refs` names with what cascades from them. */
  deleteHeld(refs: readonly CreatedRef[]): void;
}

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
 * What a 404 from the remote means for an entry: `conflict`, the record is gone there (the local copy is kept and a
 * conflict recorded); `done`, that is the desired end state (deletes); or, for an all-or-nothing batch that names
 * the ids it did not find, the request `without` them, sent again (null: nothing left, done).
 */
export type NotFound<Stored = unknown> =
  'conflict' | 'done' | { readonly without: (request: Stored, missing: readonly string[]) => Stored | null };

/** What Retry and Discard do with a create the remote refused (sync/operations/refusedCreates.ts). */
export interface RefusedCreate<Stored = unknown> {
  /** Retry: the request (validated form) that creates the record as it is now here; undefined: it goes as it was asked. */
  rebuild(ctx: RequestContext, recordId: string): Stored | undefined;
  /** Why the record cannot be discarded (its request is the stored one); undefined when it can. */
  keeps(request: Stored): string | undefined;
  /** Discard: deletes what the create made (`made`: its created ids, the record first) and what cascades from it. */
  discard(ctx: RequestContext, made: readonly CreatedRef[], held: HeldRecords): AfterCommit | void;
}

/** A create: the remote makes a new record, so an unknown outcome needs a lookup before anything is sent again. */
export interface CreateForm<Stored = unknown, Response = unknown, Result = unknown> {
  /**
   * The records the write created, its own first (from its response; from the store, in the write's transaction, for
   * those it does not name). Those of its own record's kind that keep a merge base are pending as a whole (`*create`).
   */
  created(request: Stored, response: Response, db: Db): CreatedRef[];
  /** What an earlier attempt whose outcome is unknown may have created (undefined: nothing). */
  find(p: PushContext, entry: EntryOf<Stored>): Promise<Result | undefined>;
  readonly refused: RefusedCreate<Stored>;
}

/**
 * A write whose request does not travel as it was recorded: an upload (the outbox keeps its file's durable copy,
 * streamed from the content store at push time), an import (then the listing of what it made), a write that takes
 * more than one call. Every failure of `send` counts as an unknown outcome of the whole write, so a create resolves
 * it with its lookup before any resend.
 */
export interface Transfer<Validated = unknown, Response = unknown, Stored = unknown, Encoded = unknown, Result = unknown> {
  /**
   * The handler is asynchronous (awaits before its one write transaction): the entry is appended when the write
   * reports itself from inside that transaction (services/common/writeScope.ts), so it stays atomic with it.
   */
  readonly asyncWrite: boolean;
  /** The request as the outbox keeps it (runs in the write's transaction; asValidated when it is the validated one). */
  stored(ctx: RequestContext, request: Validated, response: Response): Stored;
  /** Sends the encoded request. */
  send(p: PushContext, request: Encoded, entry: EntryOf<Stored>): Promise<Result>;
}

/**
 * How one replicated operation is recorded and pushed, as the generic core sees every spec (erased: the request and
 * response types of each operation are checked where its spec is written, by defineSpec).
 */
export interface OpSpec {
  readonly operation: string;
  /** Records the write changes that exist before it runs, and their synced fields (read from the validated request). */
  targets(request: unknown): Target[];
  /** The remote won `field` of `recordId` in a conflict: the request without it, or null when nothing is left to send. */
  dropField(request: unknown, recordId: string, field: string): unknown;
  readonly notFound: NotFound;
  /** The wire request sent to the remote (or what the transfer's send makes it of). */
  encode(request: unknown, entry: OutboxEntry): Record<string, unknown>;
  /** The remote accepted (or an earlier attempt was found): map ids, apply the remote state. Runs inside the local transaction that marks the entry done. */
  applyResult(p: PushContext, entry: OutboxEntry, response: unknown): void;
  readonly create?: CreateForm;
  readonly transfer?: Transfer;
  /** Entries of this operation on different records may be sent together (push.ts pushBatch). */
  readonly batch?: BatchForm;
}

/**
 * One operation's spec, typed from the operation table: K's validated request (`Stored`: the form the outbox keeps
 * when a transfer changes it), K's wire request and response, and what its send or lookup gives applyResult
 * (`Result`). A wire field renamed in the table is then a compile error here, not a fuzzer failure. `Encoded`: what
 * encode gives a transfer's send when that is not yet the wire request (an upload names its file in the content
 * store; send makes the wire request of it).
 */
export interface Spec<K extends OperationName, Result = WireResponse<K>, Stored = StoredRequest<K>, Encoded = WireRequest<K>> {
  readonly operation: K;
  targets(request: StoredRequest<K>): Target[];
  dropField(request: Stored, recordId: string, field: string): Stored | null;
  readonly notFound: NotFound<Stored>;
  encode(request: Stored, entry: EntryOf<Stored>): Encoded;
  applyResult(p: PushContext, entry: EntryOf<Stored>, response: Result): void;
  readonly create?: CreateForm<Stored, WireResponse<K>, Result>;
  readonly transfer?: Transfer<StoredRequest<K>, WireResponse<K>, Stored, Encoded, Result>;
  readonly batch?: BatchForm<Stored>;
}

/** A spec checked against the operation table, as the core holds it (OpSpec). */
export function defineSpec<K extends OperationName, Result = WireResponse<K>, Stored = StoredRequest<K>, Encoded = WireRequest<K>>(
  spec: Spec<K, Result, Stored, Encoded>,
): OpSpec {
  // (The erasure: the core passes each spec only its own operation's requests, responses and entries.)
  return spec as unknown as OpSpec;
}

/** A write that loses the whole of its change with any field (one field, or state): nothing is left to send. */
export const dropAll = (): null => null;

/** A create that writes no record existing before it: nothing targeted, nothing to lose in a conflict. */
export const onlyNewRecords = { targets: (): Target[] => [], dropField: dropAll, notFound: 'conflict' } as const;

/** The request the outbox keeps is the validated one (Transfer.stored). */
export const asValidated = <R>(_ctx: RequestContext, request: R): R => request;

/** A refused create goes again as it was asked (an import or an upload is what its file was); Discard deletes what it made. */
export const retryAsAsked: RefusedCreate<never> = {
  rebuild: () => undefined,
  keeps: () => undefined,
  discard: (_ctx, made, held) => held.deleteHeld(made),
};

/** A refused create that cannot be discarded: `why` (it changed another record too). */
export const keptWhenRefused = (why: string): RefusedCreate<never> => ({ ...retryAsAsked, keeps: () => why });
