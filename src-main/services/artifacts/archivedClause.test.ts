import { describe, expect, it } from 'vitest';
import { archivedClause, EXCLUDE_ARCHIVED_SQL } from './archivedClause';

describe('archivedClause', () => {
  it.each([
    [undefined, EXCLUDE_ARCHIVED_SQL],
    ['', EXCLUDE_ARCHIVED_SQL],
    ["title == 'x'", EXCLUDE_ARCHIVED_SQL],
    ['include_archived == true', '1'],
    ["include_archived == true && title == 'x'", '1'],
    ['true == include_archived', '1'],
    ['include_archived', '1'],
    ["title == 'a' && include_archived", '1'],
    ['include_archived == false', EXCLUDE_ARCHIVED_SQL],
    ['include_archived != false', '1'],
    ['!include_archived', EXCLUDE_ARCHIVED_SQL],
    ["archived_date > timestamp('2026-01-01T00:00:00Z')", '1'],
    ['archived_date == null', '1'],
    ['is_archived == true', '1'],
    // names inside strings and member selections are not references
    ["title == 'archived_date'", EXCLUDE_ARCHIVED_SQL],
    ['title == "include_archived == true"', EXCLUDE_ARCHIVED_SQL],
    ["links.exists(l, l.archived_date == 'x')", EXCLUDE_ARCHIVED_SQL],
    ["metadata['archived_date'] == 'x'", EXCLUDE_ARCHIVED_SQL],
    ["title == 'it\\'s archived_date'", EXCLUDE_ARCHIVED_SQL],
  ])('%j -> %s', (filter, want) => {
    expect(archivedClause(filter)).toBe(want);
  });
});
