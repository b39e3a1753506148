import type { Database } from 'better-sqlite3';

/** A forward-only schema step. `version` equals the NNNN prefix of its file name. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Plain DDL/DML, run as one script. */
  readonly sql?: string;
  /** For steps that need code (data rewrites). Runs inside the migration's transaction. */
  readonly up?: (db: Database, data: MigrationData) => void;
  /**
   * Runs with foreign keys off (a table rebuild: dropping the old table must not cascade to its children).
   * The runner checks every foreign key before the migration commits.
   */
  readonly foreignKeysOff?: boolean;
}

/** A policy as migration 0015 writes it (version 1, no author). */
export interface DefaultPolicyRow {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly description: string;
  readonly text: string;
  readonly versionId: string;
  readonly message: string;
  readonly now: number;
}

/**
 * What migrations take from the layers above the database, which the database does not import: the policy
 * every existing organization is given when policies start to decide (auth/defaultPolicy.ts; openEngine passes it).
 */
export interface MigrationData {
  readonly defaultPolicy?: (organizationId: string) => DefaultPolicyRow;
}
