// Asking the remote what an earlier attempt may have created, shared by the
// create specs: CEL string literals, recognising a remote without a filter
// engine, and the client-marker lookup (a create that carries
// `<marker key> = <local id>` in its metadata is found by a CEL metadata
// filter, or, without filters, by a newest-first scan back to just before the
// first send).
import { parseTimestamp } from '../../src-shared/api/time';
import { ApiError, Code } from '../../src-shared/errors';
import type { PushContext } from './spec';
import { compact } from './wireEncode';

/** A CEL string literal. */
export const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** A filter the remote rejects as unsupported (the filter engine is optional on Outpost remotes). */
export function filterUnsupported(e: unknown): boolean {
  return e instanceof ApiError && (e.code === Code.UNIMPLEMENTED || (e.code === Code.INVALID_ARGUMENT && /filter/i.test(e.message)));
}

/** Calls one list operation on the remote (a PushContext's call, or a pull's callWithRetry). */
export type ListCall = (operation: string, request: Record<string, unknown>) => Promise<unknown>;

/** A list response (any list operation of the table): its items under `field`, and the next page's token. */
type ListResponse = Record<string, unknown> & { nextPageToken?: string };

/** The items of a list response (`field`: the list operation's member, e.g. `annotations`). */
export const itemsOf = <T = unknown>(response: unknown, field: string): T[] => ((response as ListResponse)[field] ?? []) as T[];

/** The next page's token of a list response (undefined on the last page). */
export const tokenOf = (response: unknown): string | undefined => (response as ListResponse).nextPageToken || undefined;

/** The pages of a list, one page's items at a time (leave the loop to stop early). */
export async function* listPages<T>(
  call: ListCall,
  operation: string,
  field: string,
  request: Record<string, unknown>,
): AsyncGenerator<T[]> {
  let pageToken: string | undefined;
  do {
    const res = await call(operation, compact({ ...request, pageToken }));
    yield itemsOf<T>(res, field);
    pageToken = tokenOf(res);
  } while (pageToken);
}

/** Every item of a list. */
export async function listEvery<T>(call: ListCall, operation: string, field: string, request: Record<string, unknown>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of listPages<T>(call, operation, field, request)) out.push(...page);
  return out;
}

/**
 * Every item of a list, narrowed by the CEL `filter` when the remote has filters, else read whole; `keep` checks
 * each item either way (the filter only saves reading). `request`: the list's other fields (a parent id, order_by).
 */
export async function listAll<T>(
  p: Pick<PushContext, 'call' | 'features'>,
  operation: string,
  field: string,
  filter: string,
  keep: (x: T) => boolean,
  request: Record<string, unknown> = {},
): Promise<T[]> {
  const feature = `${operation}:${filter.split(' ')[0]}`;
  const useFilter = p.features.celFilter.get(feature) !== false;
  try {
    const all = await listEvery<T>(p.call, operation, field, { ...request, pageSize: 1000, filter: useFilter ? filter : undefined });
    if (useFilter) p.features.celFilter.set(feature, true);
    return all.filter(keep);
  } catch (e) {
    if (!useFilter || !filterUnsupported(e)) throw e;
    p.features.celFilter.set(feature, false);
    return listAll(p, operation, field, filter, keep, request);
  }
}

/** How far before the first send the no-filter scan looks (clock skew and the create's own duration). */
const SCAN_SLACK = 60_000_000;

export interface MarkerLookup<T> {
  /** The list operation and its result field, e.g. ListAnnotations / annotations. */
  readonly operation: string;
  readonly listField: string;
  /** Extra request fields (e.g. `includeArchived: true` where the list documents that parameter). */
  readonly request?: Record<string, unknown>;
  /** A conjunct of the marker filter where the list takes such things only in its filter (e.g. `include_archived == true`). */
  readonly filter?: string;
  readonly markerKey: string;
  readonly markerOf: (record: T) => string | undefined;
  readonly createdDateOf: (record: T) => string | undefined;
}

/** The record carrying `localId` as its client marker, if an earlier attempt created it. */
export async function findByClientMarker<T>(
  p: PushContext,
  l: MarkerLookup<T>,
  localId: string,
  organizationId: string | undefined,
  since: number | null,
): Promise<T | undefined> {
  const feature = `${l.operation}:metadata`;
  if (p.features.celFilter.get(feature) !== false) {
    try {
      const marker = `metadata[${quote(l.markerKey)}] == ${quote(localId)}`;
      const res = await p.call(
        l.operation,
        compact({ ...l.request, filter: l.filter ? `${l.filter} && ${marker}` : marker, pageSize: 10, organizationId }),
      );
      p.features.celFilter.set(feature, true);
      return itemsOf<T>(res, l.listField).find((x) => l.markerOf(x) === localId);
    } catch (e) {
      if (!filterUnsupported(e)) throw e;
      p.features.celFilter.set(feature, false);
    }
  }
  const floor = since === null ? -Infinity : since - SCAN_SLACK;
  for await (const page of listPages<T>(p.call, l.operation, l.listField, {
    ...l.request,
    orderBy: 'created_date desc',
    pageSize: 1000,
    organizationId,
  })) {
    for (const x of page) {
      if (l.markerOf(x) === localId) return x;
      if ((parseTimestamp(l.createdDateOf(x) ?? '') ?? 0) < floor) return undefined;
    }
  }
  return undefined;
}
