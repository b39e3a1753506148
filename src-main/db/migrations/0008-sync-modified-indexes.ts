// Incremental sync pulls list artifacts, test steps and test measurements with
// `modified_date >= <cursor>` ordered by modified_date (the remote side of a
// sync is this same engine under `outpost serve`). Without these indexes each
// such page scans the organization's rows.
import type { Migration } from './types';

export const migration0008: Migration = {
  version: 8,
  name: 'sync-modified-indexes',
  sql: `
CREATE INDEX artifacts_org_modified ON artifacts(organization_id, modified_date, pk);
CREATE INDEX test_steps_org_modified ON test_steps(organization_id, modified_date, pk);
CREATE INDEX test_measurements_org_modified ON test_measurements(organization_id, modified_date, pk);
`,
};
