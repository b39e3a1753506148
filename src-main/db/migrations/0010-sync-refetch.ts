// Records whose local copy the next sync reads again from the remote, one by
// one (sync/refetch.ts): the remote refused an edit of theirs, so the copy here
// holds a value the remote never took. The pull alone would only fix that when
// the remote record changes again (it lists what changed since its cursor).
import type { Migration } from './types';

export const migration0010: Migration = {
  version: 10,
  name: 'sync-refetch',
  sql: `
CREATE TABLE sync_refetch (
  resource TEXT NOT NULL,
  record_id TEXT NOT NULL,
  PRIMARY KEY (resource, record_id)
) WITHOUT ROWID;
`,
};
