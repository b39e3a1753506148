// Which parts of the API this build's contract has. A view whose operations
// are not in the operation table says so ("not available yet") instead of
// pretending.
import { operations } from '../../../src-shared/operations';

export function hasOperations(...names: readonly string[]): boolean {
  return names.every((name) => Object.hasOwn(operations, name));
}

export function missingOperations(...names: readonly string[]): string[] {
  return names.filter((name) => !Object.hasOwn(operations, name));
}
