// Shared assertions on the API's error bodies (google.rpc.Status).
import { expect } from 'vitest';

/** A UUID as the API returns ids. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** An RFC 3339 timestamp in UTC as the API writes them (millisecond or microsecond fraction). */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3}|\.\d{6})?Z$/;

export interface ApiResponse {
  status: number;
  body: any;
}

const badRequestOf = (res: ApiResponse) =>
  (res.body.details as { '@type': string; fieldViolations?: { field: string; description: string }[] }[]).find(
    (d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest',
  );

/** INVALID_ARGUMENT (400, code 3) whose BadRequest detail names `field`; never a stack trace. */
export function expectViolation(res: ApiResponse, field: string, status = 400, code = 3): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code).toBe(code);
  const detail = badRequestOf(res);
  expect(detail, 'BadRequest detail').toBeDefined();
  expect(detail!.fieldViolations!.map((v) => v.field)).toContain(field);
  expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
}

/** The first field violation of an INVALID_ARGUMENT response. */
export function violationOf(res: ApiResponse): { field: string; description: string } {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe(3);
  const detail = badRequestOf(res);
  expect(detail, 'BadRequest detail').toBeDefined();
  return detail!.fieldViolations![0];
}

/** NOT_FOUND (404, code 5), optionally with a message matching `pattern`. */
export function expectNotFound(res: ApiResponse, pattern?: RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(res.body.code).toBe(5);
  if (pattern) expect(res.body.message).toMatch(pattern);
}

const FILTER_TYPE_OF_KEY: Record<string, string> = {
  METADATA_KEY_TYPE_STRING: 'FILTER_FIELD_TYPE_STRING',
  METADATA_KEY_TYPE_NUMBER: 'FILTER_FIELD_TYPE_DOUBLE',
  METADATA_KEY_TYPE_BOOLEAN: 'FILTER_FIELD_TYPE_BOOL',
  METADATA_KEY_TYPE_RELATION: 'FILTER_FIELD_TYPE_UUID',
};

/** Metadata entries as the API returns them when nothing is archived: `{key: {name, type}, <value>}` plus the unset archive fields. */
export function unarchivedMetadata(...entries: { key: { name: string; type: string }; [value: string]: unknown }[]) {
  return entries.map((e) => ({
    ...e,
    key: {
      ...e.key,
      archivedDate: null,
      isArchived: false,
      filterFieldType: FILTER_TYPE_OF_KEY[e.key.type] ?? 'FILTER_FIELD_TYPE_UNSPECIFIED',
    },
    archivedDate: null,
    isArchived: false,
  }));
}
