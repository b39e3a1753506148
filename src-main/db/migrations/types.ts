import type { Database } from 'better-sqlite3';

/** A forward-only schema step. `version` equals the NNNN prefix of its file name. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Plain DDL/DML, run as one script. */
  readonly sql?: string;
  /** For steps that need code (data rewrites). Runs inside the migration's transaction. */
  readonly up?: (db: Database) => void;
  /**
   * Runs with foreign keys off (a table rebuild: dropping the old table must not cascade to its children).
   * The runner checks every foreign key before the migration commits.
   */
  readonly foreignKeysOff?: boolean;
}
