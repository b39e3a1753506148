// One Cedar action per operation of the operation table, named as the
// operation (`Action::"ListAnnotations"`), each a member of one action group:
// `read` (GETs and read-only POSTs), `archive` (archive, unarchive, delete),
// `admin` (policies, external sync, the sync extension) or `write`. Derived
// from the table, never listed by hand: a new operation is an action at once.
import type { OperationDef } from '../../../src-shared/api/operation';
import { operations, type OperationName } from '../../../src-shared/operations';
import { recordTypeOfTag, type RecordType } from './recordTypes';

export const ACTION_GROUPS = ['read', 'write', 'archive', 'admin'] as const;
export type ActionGroup = (typeof ACTION_GROUPS)[number];

const ADMIN_TAGS = new Set(['Policies', 'ExternalSync', 'Sync']);
const ARCHIVING = /^(Batch)?(Archive|Unarchive|Delete|Undelete)/;

export function actionGroup(op: OperationDef): ActionGroup {
  if (op.method === 'GET' || op.effect === 'read') return 'read';
  if (ADMIN_TAGS.has(op.tag)) return 'admin';
  if (ARCHIVING.test(op.name)) return 'archive';
  return 'write';
}

export interface CedarAction {
  readonly name: OperationName;
  readonly group: ActionGroup;
  /** The record type the operation may target (besides the organization), if any. */
  readonly recordType?: RecordType;
}

/** Every operation that needs a caller (public ones, like Ping, answer anyone and are not actions). */
export const CEDAR_ACTIONS: ReadonlyMap<string, CedarAction> = new Map(
  (Object.entries(operations) as [OperationName, OperationDef][])
    .filter(([, op]) => !op.public)
    .map(([name, op]) => [name, { name, group: actionGroup(op), recordType: recordTypeOfTag(op.tag) }]),
);
