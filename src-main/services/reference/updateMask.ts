// update_mask validation shared by UpdateAsset and UpdateRun: the mask is
// required, every path must be updatable, and the error names the path.
import { ApiError } from '../../../src-shared/errors';

export function checkMask<P extends string>(paths: readonly string[], updatable: readonly P[], immutable: ReadonlySet<string>): Set<P> {
  if (paths.length === 0) throw ApiError.invalid('update_mask', 'is required: name the fields to update');
  const out = new Set<P>();
  for (const p of paths) {
    if ((updatable as readonly string[]).includes(p)) out.add(p as P);
    else if (immutable.has(p)) throw ApiError.invalid('update_mask', `field '${p}' cannot be updated`);
    else throw ApiError.invalid('update_mask', `unknown field '${p}'; updatable fields: ${updatable.join(', ')}`);
  }
  return out;
}
