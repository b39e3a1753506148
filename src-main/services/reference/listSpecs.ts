// order_by fields, default orders and page sizes of the reference lists
// (reference §1.6). Filters: the CEL engine is wired later; until then
// `filterFields` is empty and a non-empty filter is rejected (UNIMPLEMENTED).
import type { ListSpec } from '../../filter/resource';

/**
 * Stand-in for NULL in order_by expressions over optional timestamps (must
 * never be NULL): -(2^53 - 1) µs, before any real timestamp and exact in a
 * JSON page token. Unset values sort first ascending, last descending.
 */
export const NULL_TIME = -9007199254740991;

export const assetListSpec: ListSpec = {
  resource: 'assets',
  from: 'assets t',
  tieBreak: 't.pk',
  orderFields: {
    name: { sql: 't.name', type: 'text' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
    archived_date: { sql: `COALESCE(t.archived_date, ${NULL_TIME})`, type: 'number' },
  },
  defaultOrder: [{ field: 'created_date', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // Documented filter fields (§11.1): asset_id, created_by_user_id, modified_by_user_id, created_date,
  // modified_date, name, name_lower, tag_id, tag_name, archived_date, is_archived, metadata (`metadata.<key>`).
  filterFields: {},
};

export const runListSpec: ListSpec = {
  resource: 'runs',
  from: 'runs t',
  tieBreak: 't.pk',
  orderFields: {
    name: { sql: 't.name', type: 'text' },
    description: { sql: 't.description', type: 'text' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
    start_time: { sql: `COALESCE(t.start_time, ${NULL_TIME})`, type: 'number' },
    stop_time: { sql: `COALESCE(t.stop_time, ${NULL_TIME})`, type: 'number' },
  },
  defaultOrder: [{ field: 'created_date', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // Documented filter fields (§11.2): run_id, organization_id, asset_id, asset_name, client_key, name,
  // description, created_by_user_id, modified_by_user_id, created_date, modified_date, start_time, stop_time,
  // tag_id, asset_tag_id, duration (seconds), duration_string, annotation_comments_count, annotation_state,
  // archived_date, is_archived, metadata. (order_by `metadata["key"]` is not supported yet.)
  filterFields: {},
};

export const tagListSpec: ListSpec = {
  resource: 'tags',
  from: 'tags t',
  tieBreak: 't.seq',
  orderFields: {
    created_date: { sql: 't.created_date', type: 'number' },
    name: { sql: 't.name', type: 'text' },
  },
  defaultOrder: [{ field: 'created_date', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // Documented filter fields (§11.3): tag_id, name.
  filterFields: {},
};

export const userListSpec: ListSpec = {
  resource: 'users',
  from: 'users t',
  tieBreak: 't.seq',
  orderFields: {
    name: { sql: 't.user_name', type: 'text' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
  },
  defaultOrder: [{ field: 'name', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // Documented filter fields (§11.4): user_id, name.
  filterFields: {},
};

export const channelListSpec: ListSpec = {
  resource: 'channels',
  from: 'channels t',
  tieBreak: 't.pk',
  orderFields: {
    name: { sql: 't.name', type: 'text' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
    active: { sql: 't.active', type: 'number' },
  },
  defaultOrder: [{ field: 'created_date', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 10_000,
  // Documented filter fields (§11.5): channel_id, asset_id, name, description, run_id, run_name,
  // run_client_key, created_date, modified_date, created_by_user_id, modified_by_user_id.
  filterFields: {},
};
