// The common forms of a replicated write, made from what it writes: the record
// kind, the request member that names the record, the synced field it
// changes, and for an update its mask paths and the wire member of each. A
// resource's specs declare those facts; the forms derive the targets, the
// wire request, how the write loses a field to the remote (dropField) and what
// a 404 means (spec.ts). What a form cannot say stays in the resource's spec.
import { snakeToCamel } from '../../src-shared/api/wire';
import type { OperationName } from '../../src-shared/operations';
import { dropAll, type BatchForm, type EntryOf, type OpSpec, type PushContext, type StoredRequest, type WireResponse } from './spec';
import type { Target } from './types';
import { compact, mask } from './wireEncode';

/** A member of a request (validated form). */
type Member<T> = keyof T & string;
/** What the remote's answer does here (the answer: `R`). */
type ApplyResult<K extends OperationName, R = WireResponse<K>> = (p: PushContext, entry: EntryOf<StoredRequest<K>>, response: R) => void;

const applyNothing = () => {};
const unique = <T>(list: readonly T[]) => [...new Set(list)];
/** A request that names records only (ids) travels as it is. */
const asIs = (request: unknown) => ({ ...(request as Record<string, unknown>) });
const idIn = (request: unknown, member: string) => (request as Record<string, string>)[member];

/** A delete of the record `id` names (`also`: other records it writes): done once the remote has it no more. */
export function deleteById<K extends OperationName>(
  operation: K,
  resource: string,
  id: Member<StoredRequest<K>>,
  also: (request: StoredRequest<K>) => Target[] = () => [],
): OpSpec {
  return {
    operation,
    targets: (req) => [{ resource, recordId: idIn(req, id), fields: ['*delete'] }, ...also(req as StoredRequest<K>)],
    dropField: dropAll,
    notFound: 'done',
    encode: asIs,
    applyResult: applyNothing,
  };
}

/** A write of one synced field (`field`: an archive state) of the record `id` names, whose request is that id. */
export function setById<K extends OperationName, R = WireResponse<K>>(f: {
  readonly operation: K;
  readonly resource: string;
  readonly id: Member<StoredRequest<K>>;
  readonly field: string;
  readonly applyResult: ApplyResult<K, R>;
  /** Writes of it on different records travel together as this batch operation. */
  readonly batch?: BatchForm<StoredRequest<K>>;
}): OpSpec {
  return {
    operation: f.operation,
    targets: (req) => [{ resource: f.resource, recordId: idIn(req, f.id), fields: [f.field] }],
    dropField: dropAll,
    notFound: 'conflict',
    encode: asIs,
    applyResult: f.applyResult as OpSpec['applyResult'],
    batch: f.batch as BatchForm | undefined,
  };
}

/**
 * A write of one synced field (`field`), or a delete (`*delete`), of every record `ids` lists: a record whose field
 * the remote won is left out; `without`: the batch is all-or-nothing, and ids the remote did not find are left out
 * and the rest sent again.
 */
export function idsBatch<K extends OperationName, R = WireResponse<K>>(f: {
  readonly operation: K;
  readonly resource: string;
  readonly ids: Member<StoredRequest<K>>;
  readonly field: string;
  readonly notFound: 'conflict' | 'without';
  readonly applyResult: ApplyResult<K, R>;
}): OpSpec {
  const idsOf = (req: unknown) => (req as Record<string, string[]>)[f.ids];
  const leaving = (req: unknown, gone: (id: string) => boolean) => {
    const ids = idsOf(req).filter((id) => !gone(id));
    return ids.length ? { ...(req as object), [f.ids]: ids } : null;
  };
  return {
    operation: f.operation,
    targets: (req) => unique(idsOf(req)).map((id) => ({ resource: f.resource, recordId: id, fields: [f.field] })),
    dropField: (req, recordId) => leaving(req, (id) => id === recordId),
    notFound: f.notFound === 'without' ? { without: (req, missing) => leaving(req, (id) => missing.includes(id)) } : 'conflict',
    encode: (req) => ({ [f.ids]: idsOf(req) }),
    applyResult: f.applyResult as OpSpec['applyResult'],
  };
}

/**
 * How a record's values travel: each wire member (a mask path in lowerCamelCase) carries the record's member of that
 * name, or what this gives, by member, where the wire form differs (a timestamp, metadata, a default for an unset value).
 */
export type WireMembers<P> = Readonly<Record<string, (values: P) => unknown>>;

/** The wire members of `values` named by `paths` (mask paths or member names; absent ones left out). */
export function wireMembers<P>(values: P, paths: readonly string[], wire: WireMembers<P>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const member of paths.map(snakeToCamel))
    out[member] = member in wire ? wire[member](values) : (values as Record<string, unknown>)[member];
  return compact(out);
}

/** A create's wire request: every member of its validated request, each in its wire form, and those `wire` adds (a marker). */
export const wireRequest = <P extends object>(request: P, wire: WireMembers<P>): Record<string, unknown> =>
  wireMembers(request, [...new Set([...Object.keys(request), ...Object.keys(wire)])], wire);

/** An update through an update mask (`updateMask`): the request's `values` member holds the record's new values. */
export interface MaskUpdate<K extends OperationName, R> {
  readonly operation: K;
  readonly resource: string;
  /** The request member holding the new values, and its member naming the record. */
  readonly values: Member<StoredRequest<K>>;
  readonly id: string;
  readonly wire: WireMembers<never>;
  /** The synced field each mask path writes (a oneof's members are one field; default: the path). */
  readonly fieldOf?: (path: string) => string;
  /** The mask paths the remote takes (default: all: the service validated them). */
  readonly sends?: (path: string) => boolean;
  readonly applyResult: ApplyResult<K, R>;
}

/** The mask paths of an update request (updateMask, snake_case), each once, as mask() sends them. */
const maskPaths = (request: unknown): string[] => unique((request as { updateMask?: string[] }).updateMask ?? []);

/** An update of one record's fields through its update mask: a field the remote won leaves the mask (nothing left: dropped). */
export function updateByMask<K extends OperationName, R = WireResponse<K>>(f: MaskUpdate<K, R>): OpSpec {
  const fieldOf = f.fieldOf ?? ((path: string) => path);
  const paths = (req: unknown) => maskPaths(req).filter(f.sends ?? (() => true));
  const valuesOf = (req: unknown) => (req as Record<string, Record<string, unknown>>)[f.values];
  return {
    operation: f.operation,
    targets: (req) => [{ resource: f.resource, recordId: valuesOf(req)[f.id] as string, fields: unique(paths(req).map(fieldOf)) }],
    dropField(req, _recordId, field) {
      const left = paths(req).filter((path) => fieldOf(path) !== field);
      return left.length ? { ...(req as object), updateMask: left } : null;
    },
    notFound: 'conflict',
    encode(req) {
      const sent = paths(req);
      const values = valuesOf(req);
      return { [f.values]: { [f.id]: values[f.id], ...wireMembers(values as never, sent, f.wire) }, updateMask: mask(sent) };
    },
    applyResult: f.applyResult as OpSpec['applyResult'],
  };
}
