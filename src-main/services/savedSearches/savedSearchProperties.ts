// SavedSearchProperties: request input -> stored JSON document -> wire JSON.
// The stored document is the wire shape with timestamps as epoch microseconds
// and non-finite doubles as their protobuf-JSON strings, so every property
// (set / unset, number / string / boolean metadata values) round-trips exactly.
import {
  SAVED_SEARCH_PROPERTY_PATHS,
  type DoubleOut,
  type SavedSearchFilterItem,
  type SavedSearchMetadataItem,
  type SavedSearchMetadataItemInput,
  type SavedSearchProperties,
  type SavedSearchPropertiesInput,
  type SavedSearchTemplateItem,
} from '../../../src-shared/api/savedSearches';
import { snakeToCamel } from '../../../src-shared/api/wire';
import { formatTimestamp, type Micros } from '../../../src-shared/api/time';

export type PropertyPath = (typeof SAVED_SEARCH_PROPERTY_PATHS)[number];

const ITEM_LISTS = ['assetItems', 'userItems', 'tagItems', 'annotationItems', 'runItems', 'reportTemplateItems'] as const;
const OPTIONAL_TIMES = ['fromDateTime', 'toDateTime'] as const;

type ItemList = (typeof ITEM_LISTS)[number];
type OptionalString = 'searchTerm' | 'orderBy' | 'duration' | 'reportType';
type OptionalBool = 'showAdvancedFilters' | 'includeArchived';
type OptionalTime = (typeof OPTIONAL_TIMES)[number];

/** The stored document (one JSON column). Absent keys = unset optional fields. */
export type StoredProperties = {
  overviewMode: string;
  metadataItems: SavedSearchMetadataItem[];
  templateItems: SavedSearchTemplateItem[];
} & {
  [K in ItemList]: SavedSearchFilterItem[];
} & {
  [K in OptionalString]?: string;
} & { [K in OptionalBool]?: boolean } & { [K in OptionalTime]?: Micros };

function doubleToStored(n: number): DoubleOut {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  return n;
}

function metadataItem(m: SavedSearchMetadataItemInput): SavedSearchMetadataItem {
  const out: SavedSearchMetadataItem = { key: m.key };
  if (m.stringValue !== undefined) out.stringValue = m.stringValue;
  else if (m.numberValue !== undefined) out.numberValue = doubleToStored(m.numberValue);
  else if (m.booleanValue !== undefined) out.booleanValue = m.booleanValue;
  return out;
}

const filterItems = (items: readonly { id: string; name: string }[] | undefined): SavedSearchFilterItem[] =>
  (items ?? []).map((i) => ({ id: i.id, name: i.name }));
const templateItems = (items: readonly { id: string; name: string; kind?: string }[] | undefined): SavedSearchTemplateItem[] =>
  (items ?? []).map((i) => ({ id: i.id, name: i.name, kind: i.kind ?? '' }));

/** Sets one property (camelCase name) of `into` from the input, clearing it when the input leaves it unset. */
function assignProperty(into: StoredProperties, input: SavedSearchPropertiesInput, key: string): void {
  const target = into as Record<string, unknown>;
  if (key === 'overviewMode') into.overviewMode = input.overviewMode ?? '';
  else if (key === 'metadataItems') into.metadataItems = (input.metadataItems ?? []).map(metadataItem);
  else if (key === 'templateItems') into.templateItems = templateItems(input.templateItems);
  else if ((ITEM_LISTS as readonly string[]).includes(key)) target[key] = filterItems(input[key as ItemList]);
  else {
    const value = input[key as OptionalString | OptionalBool | OptionalTime];
    if (value === undefined) delete target[key];
    else target[key] = value;
  }
}

export function emptyProperties(): StoredProperties {
  return {
    overviewMode: '',
    assetItems: [],
    userItems: [],
    tagItems: [],
    annotationItems: [],
    runItems: [],
    reportTemplateItems: [],
    metadataItems: [],
    templateItems: [],
  };
}

/** The whole document from a complete input (create, or update_mask `properties`). */
export function propertiesFromInput(input: SavedSearchPropertiesInput): StoredProperties {
  const out = emptyProperties();
  for (const path of SAVED_SEARCH_PROPERTY_PATHS) assignProperty(out, input, snakeToCamel(path));
  return out;
}

/** A copy of `current` with the named properties (snake_case) replaced from the input. */
export function patchProperties(
  current: StoredProperties,
  input: SavedSearchPropertiesInput,
  paths: readonly PropertyPath[],
): StoredProperties {
  const out: StoredProperties = structuredClone(current);
  for (const path of paths) assignProperty(out, input, snakeToCamel(path));
  return out;
}

/** The stored document -> wire JSON in proto field order: repeated fields always present, unset optionals omitted. */
export function propertiesToWire(stored: StoredProperties): SavedSearchProperties {
  // Defaults first, so a document written before a property existed still reads completely.
  const s: Record<string, unknown> = { ...emptyProperties(), ...stored };
  const out: Record<string, unknown> = {};
  for (const path of SAVED_SEARCH_PROPERTY_PATHS) {
    const key = snakeToCamel(path);
    const value = s[key];
    if (value === undefined) continue;
    out[key] = (OPTIONAL_TIMES as readonly string[]).includes(key) ? formatTimestamp(value as Micros) : value;
  }
  return out as SavedSearchProperties;
}
