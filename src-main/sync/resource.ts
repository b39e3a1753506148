// What the generic sync core needs to know of one replicated resource, in one
// typed descriptor per resource folder (resources/<resource>/descriptor.ts),
// all listed once in resources/index.ts. The core (outbox, push, pull, apply,
// refetch, the sync operations) only ever iterates those descriptors
// (catalog.ts); it names no resource itself.
import type { PreLinkRecords as PreLinkRecordCounts } from '../../src-shared/api/sync';
import type { Db } from '../db/database';
import type { RecordTable } from '../db/recordTable';
import type { RequestContext } from '../engine';
import type { Puller } from './pull';
import type { SyncSession } from './session';
import type { CreatedRef } from './types';
import type { RemoteCall } from './wireTypes';
import type { OpSpec } from './spec';

/** The remote state of a record about to be edited (the merge base, `sync_base`). */
export interface Snapshot {
  /** The remote modified_date the local record reflects (micros). */
  readonly version: number;
  readonly fields: Record<string, unknown>;
}

/** How a record is read again by id after the remote refused an edit of it (refetch.ts), and applied whatever its date. */
export interface RefetchReader {
  read(s: SyncSession, call: RemoteCall, id: string): Promise<unknown>;
  apply(s: SyncSession, item: unknown): void;
}

/** The write that puts a conflict's losing value back: an operation and its request (validated and recorded by invoke). */
export interface UndoWrite {
  readonly operation: string;
  readonly request: unknown;
}

/**
 * A column of a kind's rows that holds ids of another kind's records, declared by the kind that holds it
 * ("saved_searches.properties references annotation ids"). When one of those records, made here, gets its remote
 * id, the id map rewrites every declared reference to it (idMap.ts), each through its own table's store.
 */
export interface Reference {
  /** The kind referred to, as the sync tables name it (`annotation`). */
  readonly to: string;
  /** Where the ids are, `table.column`, for people. */
  readonly column: string;
  /** The column's store: rows holding `fromId` hold `toId` instead. */
  rewrite(db: Db, fromId: string, toId: string): void;
}

/** One kind of record the sync tables name (outbox targets, id map, bases, conflicts, refetch notes). */
export interface RecordKind {
  /** Its name in those tables, e.g. `annotation`. */
  readonly resource: string;
  /**
   * Its local table, from the table's one store: read by id; renamed and deleted only through it. The sync view names
   * a record by the table's `name` column, else its `file_name` (a conflict reads "annotation Pump 3", not an id).
   */
  readonly rows: RecordTable;
  /** How its records merge three-way, per field (absent: kinds without a three-way merge). */
  readonly merge?: Merged;
  /** The columns of its rows that hold other kinds' ids. */
  readonly references?: readonly Reference[];
  /** Read again by id after a refused edit (kinds pulled by modified date; the others are listed whole at every sync). */
  readonly refetch?: RefetchReader;
  /**
   * Records of this kind are also appended as side effects of other writes (an annotation's history logs). Any an
   * entry made goes with it when it is superseded (it told of a change that lost).
   */
  readonly sideEffects?: SideEffectRecords;
}

/** A kind whose records merge three-way, per field (merge.ts): its merge base, and how a lost field is put back. */
export interface Merged {
  /** The merge base of a record about to be edited (its remote state as held here). */
  snapshot(db: Db, id: string): Snapshot | undefined;
  /** The write that puts a field conflict's losing value back (undefined: that field has no automatic undo). */
  undo(recordId: string, field: string, value: unknown): UndoWrite | undefined;
}

/**
 * Records a local write appends as a side effect (an annotation's history logs): the remote writes its own, so the
 * outbox keeps their ids with the entry, and they go when the change they tell of does not happen.
 */
export interface SideEffectRecords {
  /** A mark taken before a write runs. */
  mark(db: Db): number;
  /** The ids of the records appended since `mark`. */
  since(db: Db, mark: number): string[];
  delete(db: Db, ids: readonly string[]): void;
}

/** A record adoption leaves here, and why (it stays counted; adopting again retries it). */
export interface LeftBehind {
  readonly resource: string;
  readonly recordId: string;
  readonly name: string;
  readonly reason: string;
}

/**
 * What an adoption gives a resource (sync/operations/preLink.ts): its creates go through `write`, the same validation,
 * handler and outbox recording as invoke(), inside the adoption's one transaction, as the remote user.
 */
export interface Adoption {
  /** As the remote user (the data directory's owner), in the target organization. */
  readonly ctx: RequestContext;
  /** As a member of the local organizations: reads the originals through the services. */
  readonly localCtx: RequestContext;
  /** The remote organization the records go to. */
  readonly organizationId: string;
  /** The local organizations they come from. */
  readonly localOrganizationIds: readonly string[];
  /** Ids of the local users (the records' authors here), whose place the remote user takes. */
  readonly localUserIds: ReadonlySet<string>;
  /** Runs a replicated create as an ordinary offline write (validated, recorded in the outbox); returns its response. */
  write(operation: string, request: unknown): unknown;
  /** Records adopted earlier in this adoption: local id -> the id of its adopted copy (an earlier resource's). */
  readonly moved: Map<string, string>;
  /** Notes a record that stays here, with why. */
  leave(record: LeftBehind): void;
  /**
   * Runs one record's adoption as a savepoint: a write the services refuse (an API error) undoes that record's
   * writes only and leaves it here with the error's message. Returns whether it went.
   */
  attempt(record: Omit<LeftBehind, 'reason'>, fn: () => void): boolean;
  /** Deletes adopted originals with what cascades from them. */
  deleteHeld(refs: readonly CreatedRef[]): void;
}

/**
 * Records of one kind made before the first link, in the profile's own (local) organizations: since the link the owner
 * acts as the remote user and no longer sees them. Counted on every sync; adopted as ordinary offline creates.
 */
export interface PreLinkRecords {
  /** The kind, as the sync tables name it. */
  readonly resource: string;
  /** Its plural label for people. */
  readonly label: string;
  /** How many are held in `organizationIds` (records still to be adopted, not those an outbox entry created). */
  count(db: Db, organizationIds: readonly string[]): number;
  /** What adoption does with them: moves them to the remote organization, or leaves them here and says why. */
  readonly adoption: Adopted | KeptHere;
}

/** Records adoption moves to the remote organization. */
export interface Adopted {
  /** Moves them; returns how many went. */
  adopt(a: Adoption): number;
}

/** Records adoption does not send: counted (never hidden), with why they stay. */
export interface KeptHere {
  readonly kept: string;
}

export interface ReplicatedResource {
  /** Its folder and progress label. */
  readonly name: string;
  /** The kinds of record it keeps (a test report's steps and measurements, an artifact's versions, ...). */
  readonly records: readonly RecordKind[];
  /** How each of its write operations is recorded and pushed. */
  readonly specs: readonly OpSpec[];
  /** Its lists, pulled before the push in this order (each says when it is read again: Puller.readAgain). */
  readonly pullers: readonly Puller[];
  /** Runs after every pull phase, before the refetch (e.g. archiving replayed duplicates on the remote). */
  afterPull?(s: SyncSession): Promise<unknown>;
  /** Its records made before the first link, in catalog order (an annotation before what refers to it). */
  readonly preLink: readonly PreLinkRecords[];
}

/** What AdoptPreLinkRecords did (sync/operations/preLink.ts). */
export interface AdoptionResult {
  adopted: { resource: string; label: string; count: number }[];
  leftBehind: LeftBehind[];
  remaining: PreLinkRecordCounts;
}
