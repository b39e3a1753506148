import { describe, expect, it } from 'vitest';
import { artifactListSpec, artifactListSpecArchiveByFilter } from './artifactListSpecs';
import { artifactListSpecFor, filterGovernsArchival } from './archivedFilter';

describe('filterGovernsArchival', () => {
  it.each([
    [undefined, false],
    ['', false],
    ["title == 'x'", false],
    // include_archived is the engine's directive: it does not hand archival to the filter
    ['include_archived == true', false],
    ["include_archived && title == 'x'", false],
    ["archived_date > timestamp('2026-01-01T00:00:00Z')", true],
    ['archived_date == null', true],
    ["title == 'a' || archived_date != null", true],
    ['!(archived_date == null)', true],
    ["links.exists(l, l.entity_id == 'a' && archived_date == null)", true],
    // names inside strings, map keys, record members and shadowing variables are not the field
    ["title == 'archived_date'", false],
    ['title == "archived_date == null"', false],
    ["metadata['archived_date'] == 'x'", false],
    ["metadata.archived_date == 'x'", false],
    ["'archived_date' in metadata", false],
    ["links.exists(archived_date, archived_date.entity_id == 'x')", false],
    ["title == 'it\\'s archived_date'", false],
    // invalid filters: the list reports them (is_archived is not an artifact field)
    ['is_archived == true', false],
    ['archived_date >', false],
  ])('%j -> %s', (filter, want) => {
    expect(filterGovernsArchival(filter)).toBe(want);
  });

  it('picks the declaration whose include_archived directive restricts nothing for such filters', () => {
    expect(artifactListSpecFor('archived_date == null')).toBe(artifactListSpecArchiveByFilter);
    expect(artifactListSpecFor("title == 'x'")).toBe(artifactListSpec);
    expect(artifactListSpecArchiveByFilter.resource).toBe(artifactListSpec.resource);
  });
});
