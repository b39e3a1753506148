// Keyset paging needs a unique integer tie-break, but tags and users are
// WITHOUT ROWID tables keyed by UUID. Each gets a `seq` column: existing rows
// are numbered in creation order, and a trigger numbers every later insert
// (whoever inserts: services, identity, seed, sync), so no writer has to know.
import type { Migration } from './types';

const sequence = (table: string) => `
ALTER TABLE ${table} ADD COLUMN seq INTEGER;
UPDATE ${table} SET seq = r.n FROM (SELECT id, row_number() OVER (ORDER BY created_date, id) AS n FROM ${table}) AS r WHERE r.id = ${table}.id;
CREATE UNIQUE INDEX ${table}_seq ON ${table}(seq);
CREATE TRIGGER ${table}_assign_seq AFTER INSERT ON ${table} WHEN NEW.seq IS NULL BEGIN
  UPDATE ${table} SET seq = (SELECT COALESCE(MAX(seq), 0) + 1 FROM ${table}) WHERE id = NEW.id;
END;
`;

export const migration0006: Migration = {
  version: 6,
  name: 'reference',
  sql: `
${sequence('tags')}
CREATE INDEX tags_org_created_seq ON tags(organization_id, created_date, seq);
${sequence('users')}
CREATE INDEX channels_org_name ON channels(organization_id, name, pk);
`,
};
