// Which stored policy versions a sync replica has from its remote (`pulled`)
// and which it made itself for an edit on its way (a stand-in). Once a policy
// has no edit of ours left to send, a stand-in that is not the current version
// goes: the remote made its own version of that text, with an id the public
// API does not tell us when the answer to our update was lost (it returns only
// the current version). Versions stored before this are kept (marked pulled).
import type { Migration } from './types';

export const migration0016: Migration = {
  version: 16,
  name: 'policy-version-pulled',
  sql: `
ALTER TABLE policy_versions ADD COLUMN pulled INTEGER NOT NULL DEFAULT 0;
UPDATE policy_versions SET pulled = 1;
`,
};
