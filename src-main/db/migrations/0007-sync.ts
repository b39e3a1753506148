// Replication with a remote (src-main/sync): the outbox of local writes, the
// local-id -> remote-id map, the remote base of records with pending local
// edits, per-resource pull cursors, and the conflict log. Nothing here is
// read by the API services; they stay unaware of sync.
import type { Migration } from './types';

export const migration0007: Migration = {
  version: 7,
  name: 'sync',
  sql: `
-- One row per local write, appended in the write's own transaction.
-- state: pending -> inflight (a send was attempted; outcome may be unknown)
--        -> done | failed (4xx, message kept) | superseded (lost a conflict).
CREATE TABLE sync_outbox (
  seq INTEGER PRIMARY KEY,
  operation TEXT NOT NULL,
  request TEXT NOT NULL,
  created_ids TEXT NOT NULL DEFAULT '[]',
  side_effect_log_ids TEXT NOT NULL DEFAULT '[]',
  local_time INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  first_sent_server_time INTEGER,
  error_code INTEGER,
  last_error TEXT,
  result TEXT,
  done_date INTEGER
);
CREATE INDEX sync_outbox_state ON sync_outbox(state, seq);

-- The records an entry writes, and which of their fields (JSON array).
-- base_version: the remote modified_date the edit was made on (NULL when
-- the record did not exist on the remote yet).
CREATE TABLE sync_outbox_targets (
  seq INTEGER NOT NULL REFERENCES sync_outbox(seq) ON DELETE CASCADE,
  resource TEXT NOT NULL,
  record_id TEXT NOT NULL,
  fields TEXT NOT NULL,
  base_version INTEGER,
  PRIMARY KEY (seq, resource, record_id)
) WITHOUT ROWID;
CREATE INDEX sync_outbox_targets_record ON sync_outbox_targets(resource, record_id, seq);

-- Records created offline: local id until the remote creates them.
CREATE TABLE sync_id_map (
  local_id TEXT PRIMARY KEY,
  resource TEXT NOT NULL,
  remote_id TEXT,
  created_by_seq INTEGER NOT NULL,
  mapped_date INTEGER
) WITHOUT ROWID;
CREATE INDEX sync_id_map_remote ON sync_id_map(remote_id);
CREATE INDEX sync_id_map_unmapped ON sync_id_map(resource, remote_id, local_id);

-- What the remote last said about a record that has pending local edits
-- (the base of the three-way, per-field merge). Dropped when the edits drain.
CREATE TABLE sync_base (
  resource TEXT NOT NULL,
  record_id TEXT NOT NULL,
  remote_version INTEGER NOT NULL,
  fields TEXT NOT NULL,
  PRIMARY KEY (resource, record_id)
) WITHOUT ROWID;

-- Incremental pull position per resource: (modified_date, id) in server time.
CREATE TABLE sync_cursors (
  resource TEXT PRIMARY KEY,
  modified_date INTEGER NOT NULL,
  last_id TEXT NOT NULL,
  updated_date INTEGER NOT NULL
) WITHOUT ROWID;

-- Losing values of per-field conflicts (and records gone remotely), for the user to see and undo.
CREATE TABLE sync_conflicts (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  resource TEXT NOT NULL,
  record_id TEXT NOT NULL,
  field TEXT NOT NULL,
  winner TEXT NOT NULL,
  local_value TEXT,
  remote_value TEXT,
  local_time INTEGER,
  remote_time INTEGER,
  message TEXT NOT NULL DEFAULT '',
  created_date INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'open',
  resolved_date INTEGER
);
CREATE INDEX sync_conflicts_record ON sync_conflicts(resource, record_id, pk);
CREATE INDEX sync_conflicts_state ON sync_conflicts(state, pk);
`,
};
