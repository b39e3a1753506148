// Undo of a lost annotation field: the losing value (in the canonical form the
// conflict log keeps, shape.ts) written again through
// UpdateAnnotation, or the archive state through Archive/UnarchiveAnnotation.
import { formatTimestamp } from '../../../../src-shared/api/time';
import { snakeToCamel } from '../../../../src-shared/api/wire';
import type { UndoWrite } from '../../resource';

/** A canonical annotation value -> the wire value UpdateAnnotation takes. */
function annotationPatchValue(field: string, value: unknown): Record<string, unknown> {
  switch (field) {
    case 'start_time':
    case 'end_time':
      return { [snakeToCamel(field)]: formatTimestamp(value as number) };
    case 'assigned_to_user_id':
      return { assignedToUserId: value ?? '' };
    case 'legend_config':
      return value === null ? {} : { legendConfig: value };
    case 'linked_channels':
      return { linkedChannels: value ?? [] };
    case 'state':
      return value === null ? {} : { state: value };
    default:
      return { [field]: value };
  }
}

export const undoAnnotationField = (annotationId: string, field: string, value: unknown): UndoWrite =>
  field === 'archived'
    ? { operation: value ? 'ArchiveAnnotation' : 'UnarchiveAnnotation', request: { annotationId } }
    : {
        operation: 'UpdateAnnotation',
        request: { annotation: { annotationId, ...annotationPatchValue(field, value) }, updateMask: field },
      };
