// INVALID_ARGUMENT errors for a bad filter: the message names the problem and
// where it is (`filter: undeclared reference to 'nmae' at column 1`), with a
// google.rpc.BadRequest detail on the `filter` field.
import { ApiError } from '../../src-shared/errors';

/** "column N" (1-based, in code points) or "line L, column N" for multi-line filters. */
export function describePosition(input: string, offset: number): string {
  const before = input.slice(0, Math.max(0, Math.min(offset, input.length)));
  const lastNewline = before.lastIndexOf('\n');
  const column = [...before.slice(lastNewline + 1)].length + 1;
  if (!input.includes('\n')) return `column ${column}`;
  const line = before.split('\n').length;
  return `line ${line}, column ${column}`;
}

export function filterError(description: string, input?: string, offset?: number): ApiError {
  const where = input !== undefined && offset !== undefined ? ` at ${describePosition(input, offset)}` : '';
  return ApiError.invalid('filter', `${description}${where}`);
}

/** A filter-shaped problem found while compiling; compileFilter turns it into an ApiError. */
export class FilterCompileError extends Error {
  readonly offset: number | undefined;

  constructor(message: string, offset?: number) {
    super(message);
    this.name = 'FilterCompileError';
    this.offset = offset;
  }
}
