// The note that a record is to be read again by id (migration 0010,
// refetch.ts). A module of its own so that what decides to note a record (the
// failing push, a pull leaving a copy for a lookup: resources/policies.ts)
// need not import the readers, which import the resources.
import type { Db } from '../db/database';

export function noteForRefetch(db: Db, resource: string, recordId: string): void {
  db.run('INSERT OR IGNORE INTO sync_refetch(resource, record_id) VALUES (?, ?)', [resource, recordId]);
}
