// The demo mark of a data directory: a database the demo dataset was written
// into is a demo profile, and a demo profile is never linked to a remote (its
// made-up records would go to a team's real data). The mark lives in the
// database itself, so every way of linking (the Sync view over IPC, HTTP's
// ConfigureSyncRemote, `outpost sync --remote`) reads the same fact.
import { randomBytes } from 'node:crypto';
import { ApiError, Code } from '../../src-shared/errors';
import type { Db } from './database';

const DEMO_SETTING = 'profile.demo';
/** Salt of the demo dataset's ids in this directory: made once, so two demo directories never share a record id. */
const DEMO_ID_SALT_SETTING = 'profile.demo_id_salt';

export const DEMO_LINK_REFUSED =
  'this is a demo profile: its records are made up, and linking it would send them to the remote as real data; link your own profile (or another data directory) instead';

export function isDemoProfile(db: Db): boolean {
  return db.setting(DEMO_SETTING) === '1';
}

/** Marks the database as a demo profile; returns the salt its demo records' ids are derived with. */
export function markDemoProfile(db: Db): string {
  return db.tx(() => {
    db.setSetting(DEMO_SETTING, '1');
    let salt = db.setting(DEMO_ID_SALT_SETTING);
    if (!salt) {
      salt = randomBytes(16).toString('hex');
      db.setSetting(DEMO_ID_SALT_SETTING, salt);
    }
    return salt;
  });
}

/** Throws FAILED_PRECONDITION (and changes nothing) when the database is a demo profile. */
export function refuseLinkingDemoProfile(db: Db): void {
  if (isDemoProfile(db)) throw new ApiError(Code.FAILED_PRECONDITION, DEMO_LINK_REFUSED);
}
