// Undo of a lost field: the losing value is written again through the
// resource's own public operation (so it is validated, recorded in the outbox
// and synced like any edit). Each record kind says how (RecordKind.merge.undo in its
// descriptor); values arrive in the canonical form the resources keep in the
// conflict log.
import type { OperationName } from '../../../src-shared/operations';
import type { RequestContext } from '../../engine';
import { invoke } from '../../services/invoke';
import type { UndoWrite } from '../resource';
import type { ResourceCatalog } from '../catalog';

/** The write that puts `value` back into `field` of the record; undefined when that field has no automatic undo. */
function undoWrite(catalog: ResourceCatalog, resource: string, recordId: string, field: string, value: unknown): UndoWrite | undefined {
  return catalog.kind(resource)?.merge?.undo(recordId, field, value);
}

/** Whether UndoSyncConflict can write a field conflict's losing value back (the renderer offers Undo only then). */
export const canUndoField = (catalog: ResourceCatalog, resource: string, recordId: string, field: string, value: unknown) =>
  undoWrite(catalog, resource, recordId, field, value) !== undefined;

/** Writes `value` back into `field` of the record as an ordinary (validated, recorded, synced) edit. */
export async function undoFieldWrite(
  catalog: ResourceCatalog,
  ctx: RequestContext,
  resource: string,
  recordId: string,
  field: string,
  value: unknown,
): Promise<boolean> {
  const write = undoWrite(catalog, resource, recordId, field, value);
  if (!write) return false;
  await invoke(ctx, write.operation as OperationName, write.request);
  return true;
}
