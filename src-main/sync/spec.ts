// How one replicated operation is recorded and pushed (OpSpec), and what the
// push loop gives it (PushContext). Every resource declares its specs in its
// descriptor (resources/<resource>/descriptor.ts).
import type { Db } from '../db/database';
import type { RequestContext } from '../engine';
import type { Applier } from './apply';
import type { IdRewriters } from './idMap';
import type { CreatedRef, OutboxEntry, Target } from './types';

/** What the push loop gives an operation spec. */
export interface PushContext {
  readonly db: Db;
  /** Calls one operation on the remote (no retries; the push loop retries). */
  call(operation: string, request: Record<string, unknown>): Promise<any>;
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

/** How single-record writes of one operation travel together as one batch request (the API's batch form; push.ts). */
export interface BatchForm {
  /** The batch operation. */
  readonly operation: string;
  /** The record a single entry's request names (its ids translated). */
  idOf(request: any): string;
  /** The batch request for these records. */
  request(ids: readonly string[]): Record<string, unknown>;
  /** The batch's response split per record, each as the single operation would have answered. */
  results(response: any): (id: string) => unknown;
}

/** How one replicated operation is recorded and pushed. */
export interface OpSpec {
  readonly operation: string;
  /** `create`: the remote makes a new record (unknown outcomes need a lookup before retrying). */
  readonly kind: 'create' | 'write';
  /** Records the write changes that exist before it runs (read from the validated request). */
  targets(request: any): Target[];
  /** Records the write created (read from its response; from the store, in the write's transaction, for those it does not name). */
  created?(request: any, response: any, db: Db): CreatedRef[];
  /** Targets that only exist after the write (e.g. the annotation a new log changed). */
  targetsAfter?(request: any, response: any): Target[];
  /**
   * The handler is asynchronous (awaits before its one write transaction): the entry is appended when the
   * write reports itself from inside that transaction (services/writeScope.ts), so it stays atomic with it.
   */
  readonly asyncWrite?: boolean;
  /** The request as kept in the outbox, when it differs from the validated one (e.g. an upload's temp file -> its durable copy). Runs in the write's transaction. */
  storedRequest?(ctx: RequestContext, request: any, response: any): any;
  /**
   * The remote has no such operation at all (e.g. the platform, which has no artifact routes): the message
   * kept on the entry, which then stays pending without blocking the others (push.ts). Undefined: an ordinary error.
   */
  unsupportedBy?(error: unknown): string | undefined;
  /** The wire request sent to the remote. */
  encode(request: any, entry: OutboxEntry): Record<string, unknown>;
  /**
   * Sends the encoded request (default: one call of the entry's operation). For a write that needs more
   * than one request (an import, then the listing of what it created); every failure counts as an unknown
   * outcome of the whole write, so a create resolves it with findExisting before any resend.
   */
  send?(p: PushContext, request: Record<string, unknown>, entry: OutboxEntry): Promise<unknown>;
  /** For creates: finds what an earlier attempt whose outcome is unknown may have created. */
  findExisting?(p: PushContext, entry: OutboxEntry): Promise<unknown | undefined>;
  /** The remote accepted (or an earlier attempt was found): map ids, apply the remote state. Runs inside the local transaction that marks the entry done. */
  applyResult(p: PushContext, entry: OutboxEntry, response: any): void;
  /** A 404 from the remote: `done` when that is the desired end state (deletes), else a conflict is recorded. */
  readonly notFoundIsDone?: boolean;
  /** A batch refused with 404 for some of its ids: the request without them (null: nothing left), sent again. */
  withoutMissing?(request: any, missing: readonly string[]): any | null;
  /** The remote won `field` of `recordId` in a conflict: the request without it, or null when nothing is left to send. */
  dropField?(request: any, recordId: string, field: string): any | null;
  /** Entries of this operation on different records may be sent together (push.ts pushBatch). */
  readonly batch?: BatchForm;
}
