import { describe, expect, test } from 'vitest';
import { TransportError } from '../../../src-shared/httpRequest';
import { ApiError, Code } from '../../../src-shared/errors';
import { codeName, isFilterError, isUnimplemented, toErrorInfo } from './errors';

describe('toErrorInfo', () => {
  test('keeps the server message and field violations of an ApiError', () => {
    const info = toErrorInfo(ApiError.invalid('filter', "1:6: unknown field 'nmae'"));
    expect(info).toEqual({
      code: 'INVALID_ARGUMENT',
      message: "filter: 1:6: unknown field 'nmae'",
      fieldViolations: [{ field: 'filter', description: "1:6: unknown field 'nmae'" }],
    });
    expect(isFilterError(info)).toBe(true);
  });

  test('UNIMPLEMENTED is a filter error too, and recognisable', () => {
    const info = toErrorInfo(ApiError.unimplemented('ListArtifacts is not implemented'));
    expect(info.code).toBe('UNIMPLEMENTED');
    expect(isFilterError(info)).toBe(true);
    expect(isUnimplemented(info)).toBe(true);
  });

  test('other codes are not filter errors', () => {
    expect(isFilterError(toErrorInfo(new ApiError(Code.NOT_FOUND, 'gone')))).toBe(false);
  });

  test('no response: says the engine could not be reached, with the reason', () => {
    const info = toErrorInfo(new TransportError('GET /api/v1/annotations: fetch failed'));
    expect(info.code).toBe('TRANSPORT');
    expect(info.message).toBe('Could not reach the Outpost engine: GET /api/v1/annotations: fetch failed');
  });

  test('anything else keeps its message', () => {
    expect(toErrorInfo(new TypeError('boom'))).toEqual({ code: 'CLIENT', message: 'boom', fieldViolations: [] });
    expect(toErrorInfo('text')).toMatchObject({ message: 'text' });
  });

  test('codeName', () => {
    expect(codeName(Code.PERMISSION_DENIED)).toBe('PERMISSION_DENIED');
    expect(codeName(99)).toBe('CODE_99');
  });
});
