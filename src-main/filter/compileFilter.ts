// CEL filter -> parameterized SQL. Placeholder until the filter engine lands:
// a non-empty filter is rejected, never ignored.
import { ApiError } from '../../src-shared/errors';
import type { FilterFields } from './fields';

export interface CompiledFilter {
  readonly sql: string;
  readonly params: unknown[];
}

export function compileFilter(_fields: FilterFields, filter: string | undefined): CompiledFilter {
  if (!filter || filter.trim() === '') return { sql: '1', params: [] };
  throw ApiError.unimplemented('filter: CEL filtering is not implemented yet');
}
