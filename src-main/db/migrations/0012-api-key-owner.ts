// API keys say whether they are the data directory owner's (issue #19 item 4):
// only the owner configures, removes or runs the sync with the remote, and on
// a replica only the owner's calls act as the remote user. The owner's keys are
// `outpost serve`'s session key and keys made with `outpost keys create
// --owner`; keys made before this step for the local default user (the one
// `outpost serve` and `keys create` used) were the owner's, and stay so.
import type { Migration } from './types';

export const migration0012: Migration = {
  version: 12,
  name: 'api-key-owner',
  sql: `
ALTER TABLE api_keys ADD COLUMN owner INTEGER NOT NULL DEFAULT 0;
UPDATE api_keys SET owner = 1 WHERE user_id IN (SELECT id FROM users WHERE user_name = 'engineer@outpost.local');
`,
};
