// Runs one operation: validate the raw request with the operation's zod
// schema, then call its handler. Shared by the HTTP router and the IPC bridge
// so both validate identically.
import { type z } from 'zod';
import { writesPlatformData } from '../../src-shared/api/operation';
import { camelToSnake } from '../../src-shared/api/wire';
import { ApiError, type FieldViolation } from '../../src-shared/errors';
import { operations, type OperationName } from '../../src-shared/operations';
import { authorizeOperation } from '../auth/cedar/authorize';
import { storageError } from '../db/storageErrors';
import { isReplica, type RequestContext } from '../engine';
import { authorizationScope } from './common/authorizationScope';
import { batchPlans } from './batchPlans';
import type { BatchPlan, BatchPlanner, PlanContext } from './common/batchPlan';
import { isPromise } from './common/handler';
import { changeFeedFor } from './changeFeed';
import { handlers } from './registry';
import { changeOfWrite } from './writeChanges';

function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += (out ? '.' : '') + camelToSnake(String(p));
  }
  return out;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return 'is required';
  return issue.message;
}

export function zodToApiError(error: z.ZodError): ApiError {
  const violations: FieldViolation[] = error.issues.map((i) => ({ field: fieldPath(i.path), description: describeIssue(i) }));
  return ApiError.invalidMany(violations);
}

/** A lone surrogate: text no UTF-8 can carry (Cedar, SQLite and the remote would each fail on it differently). */
const LONE_SURROGATE = /\p{Cs}/u;

interface Visit {
  readonly value: unknown;
  readonly key?: PropertyKey;
  readonly parent?: Visit;
}

const pathOf = (v: Visit): PropertyKey[] => {
  const path: PropertyKey[] = [];
  for (let at: Visit | undefined = v; at?.parent; at = at.parent) path.unshift(at.key!);
  return path;
};

/**
 * The path of the first string (value or key) of the request holding a lone surrogate, if any. Walked with a stack
 * of its own: a body may nest thousands of levels deep (JSON allows it; the schema ignores what it does not know).
 */
function illFormedText(raw: unknown): PropertyKey[] | undefined {
  const stack: Visit[] = [{ value: raw }];
  for (let v = stack.pop(); v; v = stack.pop()) {
    const value = v.value;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return pathOf(v);
      continue;
    }
    if (typeof value !== 'object' || value === null || value instanceof Uint8Array) continue;
    const list = Array.isArray(value);
    for (const [key, item] of Object.entries(value)) {
      const child: Visit = { value: item, key: list ? Number(key) : key, parent: v };
      if (LONE_SURROGATE.test(key)) return pathOf(child);
      stack.push(child);
    }
  }
  return undefined;
}

export function parseRequest(name: OperationName, raw: unknown): unknown {
  const illFormed = illFormedText(raw);
  if (illFormed) throw ApiError.invalid(fieldPath(illFormed) || 'body', 'is not valid Unicode text (a lone UTF-16 surrogate)');
  const result = operations[name].request.safeParse(raw ?? {});
  if (!result.success) throw zodToApiError(result.error);
  return result.data;
}

export async function invoke(requestCtx: RequestContext, name: OperationName, raw: unknown): Promise<unknown> {
  try {
    return await invokeOperation(requestCtx, name, raw);
  } catch (e) {
    // A full disk, a busy or damaged database: errors a user can act on, not a bare "internal error".
    throw storageError(e) ?? e;
  }
}

/**
 * invoke() for a write that must run inside the caller's transaction (the adoption of pre-link records, one
 * transaction for them all): the same pipeline, run now. A write whose handler is asynchronous is refused.
 */
export function invokeInTransaction(requestCtx: RequestContext, name: OperationName, raw: unknown): unknown {
  let result: unknown;
  try {
    result = dispatch(requestCtx, name, raw, (req) => parseRequest(name, req));
  } catch (e) {
    throw storageError(e) ?? e;
  }
  if (isPromise(result)) {
    result.catch(() => undefined); // the error below is the answer
    throw ApiError.internal(`${name}: a write inside a transaction must run synchronously`);
  }
  return result;
}

/**
 * Every sync extension operation (`/api/v1/outpost/sync/*`: the link, the outbox, conflicts, status): the data
 * directory owner's alone (issue #19 item 4, #28 item 4). Derived from the table, so a new one is owner-only at once.
 */
const OWNER_ONLY: ReadonlySet<OperationName> = new Set(
  (Object.keys(operations) as OperationName[]).filter((n) => operations[n].path.startsWith('/api/v1/outpost/sync')),
);

async function invokeOperation(requestCtx: RequestContext, name: OperationName, raw: unknown): Promise<unknown> {
  if (operations[name].eachAs) return runEach(requestCtx, name, raw);
  return await dispatch(requestCtx, name, raw, (req) => parseRequest(name, req));
}

/** A batch without a plan of its own: its request's `requests`, each run as its one operation (BatchUpdateAnnotations). */
function requestsPlan(name: OperationName, request: unknown): BatchPlan {
  const [operation] = operations[name].eachAs as readonly OperationName[];
  const { requests } = request as { requests: unknown[] };
  return {
    items: requests.map((r) => ({ operation, request: r })),
    itemField: (i) => `requests[${i}]`,
    answer: (responses) => ({ responses }),
  };
}

/**
 * A batch (`eachAs` in the table): the batch request is validated as a whole and its plan made (services/batchPlans.ts,
 * else its `requests`), then each item runs through dispatch exactly as if it had been sent alone (its own
 * authorization, its own outbox entry on a replica), all inside one transaction. The first refusal rolls every item
 * back and names the item.
 */
function runEach(requestCtx: RequestContext, name: OperationName, raw: unknown): unknown {
  // On a replica, stale local ids are translated once for the whole batch (its items, made from it, are not again).
  const parsed = parseRequest(name, raw);
  const recorder = requestCtx.engine.replica?.writeRecorder();
  const request = (recorder ? recorder.translate(name, parsed) : parsed) as Record<string, unknown>;
  // Decided, and planned, as the items will act: as the replica's remote user where the owner acts as one.
  const acting = actingContext(requestCtx);
  // The batch itself is decided on the records it names at its top level (BatchChangeAnnotations' records), else on
  // the organization (Action::"<batch>"); each item then as its own operation.
  authorized(acting, name, request);
  const planner = batchPlans[name] as BatchPlanner<unknown> | undefined;
  const planCtx: PlanContext = { ...acting, listGate: (list, req) => authorized(acting, list, req).rowGate };
  // All or none: the items' own transactions join the batch's (an item's error fails the batch whole).
  let ran = 0;
  const answer = requestCtx.db.joined(() => {
    const plan = planner ? planner(planCtx, request) : requestsPlan(name, request);
    const eachAs = operations[name].eachAs!;
    const responses = plan.items.map((item, i) => {
      try {
        if (!eachAs.includes(item.operation)) throw ApiError.internal(`${name} cannot run ${item.operation}`);
        const response = dispatch(acting, item.operation, item.request, (validated) => validated, 'batch item');
        if (isPromise(response)) throw ApiError.internal(`${name}: ${item.operation} must run synchronously in a batch`);
        return response;
      } catch (e) {
        const field = plan.itemField?.(i);
        throw field ? inItem(e, field) : e;
      }
    });
    ran = responses.length;
    return plan.answer(responses);
  });
  // The change feed hears of the batch once it has committed (a refused batch changed nothing), as one change naming
  // its records: an entry per item would push what readers have not read yet out of the feed's ring.
  if (ran > 0) announced(acting, name, request, answer, 'call');
  return answer;
}

/** An item's error as the batch's: its fields under `requests[i]`, its message naming the item. */
function inItem(error: unknown, prefix: string): unknown {
  if (!(error instanceof ApiError)) return error;
  const details = error.details.map((d) =>
    d['@type'] === 'type.googleapis.com/google.rpc.BadRequest' && Array.isArray((d as { fieldViolations?: unknown }).fieldViolations)
      ? {
          ...d,
          fieldViolations: (d as { fieldViolations: FieldViolation[] }).fieldViolations.map((v) => ({
            ...v,
            field: v.field ? `${prefix}.${v.field}` : prefix,
          })),
        }
      : d,
  );
  return new ApiError(error.code, `${prefix}: ${error.message}`, details);
}

/**
 * A synced replica works as its remote user: its owner (the desktop's user, the owner's keys under `outpost serve`)
 * reads and writes as that user, so local records, outbox entries and their authors carry the remote's user and
 * organization ids. Anyone else's key is never silently re-identified: it cannot write here.
 */
function actingContext(requestCtx: RequestContext): RequestContext {
  const owner = requestCtx.caller.owner === true;
  const acting = requestCtx.engine.replica?.actingCaller();
  return acting && owner && acting.userId !== requestCtx.caller.userId ? { ...requestCtx, caller: { ...acting, owner } } : requestCtx;
}

/**
 * Runs one operation on its request (`validate` turns the raw request into the validated one); may return a promise.
 * A batch's item (`as`) comes with the batch's acting caller and from a request the batch translated already, and the
 * batch announces its changes.
 */
function dispatch(
  requestCtx: RequestContext,
  name: OperationName,
  raw: unknown,
  validate: (raw: unknown) => unknown,
  as: 'call' | 'batch item' = 'call',
): unknown {
  const owner = requestCtx.caller.owner === true;
  if (OWNER_ONLY.has(name) && !owner) {
    throw ApiError.permissionDenied(
      `${name} is for the owner of this Outpost's data directory only (the key \`outpost serve\` prints, or one made with \`outpost keys create --owner\`)`,
    );
  }
  const ctx = as === 'batch item' ? requestCtx : actingContext(requestCtx); // (a batch passes its items the acting caller)
  // (The sync operations live with sync, above the services: the engine's replica carries their handlers. Each handler
  // takes the request its own operation's schema validates, which parseRequest below produces.)
  type Validated = ((ctx: RequestContext, req: unknown) => unknown) | undefined;
  const handler = (handlers as Record<string, Validated>)[name] ?? (ctx.engine.replica?.operationHandlers[name] as Validated);
  if (!handler) throw ApiError.unimplemented(`${name} is not implemented`);
  const req = validate(raw);
  // On a sync replica, replicated writes append their outbox entry in the write's transaction.
  const recorder = ctx.engine.replica?.writeRecorder();
  if (recorder && !owner && (recorder.records(name) || writesPlatformData(operations[name]))) {
    throw ApiError.permissionDenied(
      `${name}: this Outpost is a replica of its remote, and only its owner's calls write here (as the owner's remote user); use the owner's key, or write on the remote`,
    );
  }
  if (!recorder) {
    // A replica opened without sync attached would accept writes that never reach the remote: refuse them loudly.
    if (writesPlatformData(operations[name]) && isReplica(ctx.db)) {
      throw ApiError.internal(
        `${name}: this data directory is a sync replica, but this process opened it without sync (openEngine's replica)`,
      );
    }
    return announced(
      ctx,
      name,
      req,
      gated(name, authorized(ctx, name, req), (c) => handler(c, req)),
      as,
    );
  }
  const replicated = recorder.records(name);
  // Any other platform write would change only this copy: never pushed, and a later pull may overwrite it.
  if (!replicated && writesPlatformData(operations[name])) {
    throw ApiError.failedPrecondition(
      `${name} is not replicated: this Outpost is a replica of its remote, so the change would never reach it; make it on the remote`,
    );
  }
  const translated = as === 'batch item' ? req : recorder.translate(name, req);
  // Decided here with the policies pulled from the remote, so an edit they forbid is refused now, not on push.
  const authorizedCtx = authorized(ctx, name, translated);
  if (!replicated)
    return announced(
      ctx,
      name,
      translated,
      gated(name, authorizedCtx, (c) => handler(c, translated)),
      as,
    );
  return announced(
    ctx,
    name,
    translated,
    recorder.run(authorizedCtx, name, translated, () => handler(authorizedCtx, translated)),
    as,
  );
}

/**
 * Every successful write tells the change feed what it changed (live views, the SSE stream): here, not per service.
 * A synchronous answer stays synchronous (a batch item's write); a promise is announced once it resolves.
 */
function announced(ctx: RequestContext, name: OperationName, request: unknown, result: unknown, as: 'call' | 'batch item'): unknown {
  if (as === 'batch item') return result; // the batch announces its items' changes as one, once committed
  const publish = (response: unknown) => {
    const change = changeOfWrite(name, ctx.caller, request, response);
    if (change) changeFeedFor(ctx.db).publish(change);
    return response;
  };
  return result instanceof Promise ? result.then(publish) : publish(result);
}

/**
 * Runs a handler; one given a list's row gate must have applied it, else its answer could show hidden rows. Without a
 * gate (every write) the handler's answer is returned as it is, so a batch item's synchronous write stays synchronous.
 */
function gated(name: OperationName, ctx: RequestContext, run: (ctx: RequestContext) => unknown): unknown {
  const gate = ctx.rowGate;
  if (!gate) return run(ctx);
  return (async () => {
    const answer = await run(ctx);
    if (!gate.applied) throw ApiError.internal(`${name} answered without applying the organization's policies to its rows`);
    return answer;
  })();
}

/** The organization's Cedar policies decide the operation (PERMISSION_DENIED), and for lists which rows it shows. */
function authorized(ctx: RequestContext, name: OperationName, req: unknown): RequestContext {
  const rowGate = authorizeOperation(authorizationScope(ctx), name, req);
  return rowGate ? { ...ctx, rowGate } : ctx;
}
