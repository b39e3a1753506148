// Shapes shared by the sync modules: outbox entries and their targets (the
// per-operation push specification is spec.ts).

export type EntryState = 'pending' | 'inflight' | 'done' | 'failed' | 'superseded' | 'dismissed';

/** A record an outbox entry created locally (its id is local until the remote creates it). */
export interface CreatedRef {
  readonly resource: string;
  readonly id: string;
}

/** A record an outbox entry writes, and the synced fields it changes. */
export interface Target {
  readonly resource: string;
  readonly recordId: string;
  readonly fields: readonly string[];
}

export interface OutboxEntry {
  readonly seq: number;
  readonly operation: string;
  /** The validated request (zod output form); ids are rewritten as mappings arrive. */
  request: unknown;
  readonly createdIds: CreatedRef[];
  readonly sideEffectLogIds: string[];
  /** Local wall clock (epoch micros) when the edit was made: orders conflicts only, never a cursor. */
  readonly localTime: number;
  state: EntryState;
  attempts: number;
  /** Server clock (epoch micros, from the remote's Date header) just before the first send. */
  firstSentServerTime: number | null;
  errorCode: number | null;
  lastError: string | null;
}

export interface OutboxRow {
  seq: number;
  operation: string;
  request: string;
  created_ids: string;
  side_effect_log_ids: string;
  local_time: number;
  state: EntryState;
  attempts: number;
  first_sent_server_time: number | null;
  error_code: number | null;
  last_error: string | null;
}

export function entryFromRow(r: OutboxRow): OutboxEntry {
  return {
    seq: r.seq,
    operation: r.operation,
    request: JSON.parse(r.request),
    createdIds: JSON.parse(r.created_ids) as CreatedRef[],
    sideEffectLogIds: JSON.parse(r.side_effect_log_ids) as string[],
    localTime: r.local_time,
    state: r.state,
    attempts: r.attempts,
    firstSentServerTime: r.first_sent_server_time,
    errorCode: r.error_code,
    lastError: r.last_error,
  };
}
