// What one successful write changed, as the change feed tells it: derived from
// the operation table (the operation's record type, by its tag) and the ids the
// request and the response name, so no service announces its own writes.
import { writesPlatformData } from '../../src-shared/api/operation';
import type { Change, ChangeReason } from '../../src-shared/api/changes';
import { operations, type OperationName } from '../../src-shared/operations';
import type { Caller } from '../auth/caller';
import { recordTypeOfTag, type RecordType } from '../auth/cedar/recordTypes';
import { MAX_IDS } from './changeFeed';

function reasonOf(name: string): ChangeReason {
  if (name === 'ImportTestReport') return 'import';
  return name.startsWith('Batch') ? 'batch' : 'write';
}

/** `Remote files` -> `remote_files`: the resource of an operation that acts on no record type. */
const resourceOfTag = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+/g, '_');

/** The values of `field` in `value`, looked for a few levels down (a record, its body member, a batch's records). */
function collectIds(value: unknown, field: string, into: Set<string>, depth = 0): void {
  if (depth > 3 || value === null || typeof value !== 'object' || into.size > MAX_IDS) return;
  if (Array.isArray(value)) {
    for (const v of value) collectIds(v, field, into, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const [key, v] of Object.entries(record)) {
    if (key === field && typeof v === 'string' && v !== '') into.add(v);
    else if (key === `${field}s` && Array.isArray(v)) {
      for (const id of v) if (typeof id === 'string' && id !== '') into.add(id);
    } else if (v !== null && typeof v === 'object') collectIds(v, field, into, depth + 1);
  }
}

function idsOf(type: RecordType, request: unknown, response: unknown): string[] | 'many' {
  const ids = new Set<string>();
  collectIds(request, type.idField, ids);
  collectIds(response, type.idField, ids);
  return ids.size === 0 || ids.size > MAX_IDS ? 'many' : [...ids];
}

/** The change a successful call made, or undefined when the operation writes no platform data. */
export function changeOfWrite(name: OperationName, caller: Caller, request: unknown, response: unknown): Change | undefined {
  const op = operations[name];
  if (!writesPlatformData(op)) return undefined;
  const type = recordTypeOfTag(op.tag);
  const by = caller.userId ? { userId: caller.userId } : {};
  if (!type) return { resource: resourceOfTag(op.tag), ids: 'many', reason: reasonOf(name), ...by };
  return { resource: type.table, ids: idsOf(type, request, response), reason: reasonOf(name), ...by };
}
