// Runs one operation: validate the raw request with the operation's zod
// schema, then call its handler. Shared by the HTTP router and the IPC bridge
// so both validate identically.
import { z } from 'zod';
import { writesPlatformData } from '../../src-shared/api/operation';
import { camelToSnake } from '../../src-shared/api/wire';
import { ApiError, type FieldViolation } from '../../src-shared/errors';
import { operations, type OperationName } from '../../src-shared/operations';
import type { RequestContext } from '../engine';
import { handlers } from './registry';

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

export function parseRequest(name: OperationName, raw: unknown): unknown {
  const result = operations[name].request.safeParse(raw ?? {});
  if (!result.success) throw zodToApiError(result.error);
  return result.data;
}

export async function invoke(requestCtx: RequestContext, name: OperationName, raw: unknown): Promise<unknown> {
  // A synced replica works as its remote user: whoever calls locally (the desktop's user, a
  // local API key under `outpost serve`) reads and writes as that user, so local records,
  // outbox entries and their authors carry the remote's user and organization ids.
  const acting = requestCtx.engine.actingCaller?.();
  const ctx = acting && acting.userId !== requestCtx.caller.userId ? { ...requestCtx, caller: acting } : requestCtx;
  // (The sync operations live with sync, above the services: the engine carries their handlers.)
  // (Each handler takes the request its own operation's schema validates, which parseRequest below produces.)
  type Validated = ((ctx: RequestContext, req: unknown) => unknown) | undefined;
  const handler = (handlers as Record<string, Validated>)[name] ?? (ctx.engine.operationHandlers?.[name] as Validated);
  if (!handler) throw ApiError.unimplemented(`${name} is not implemented`);
  const req = parseRequest(name, raw);
  // On a sync replica, replicated writes append their outbox entry in the write's transaction.
  const recorder = ctx.engine.writeRecorder;
  if (!recorder) return await handler(ctx, req);
  const replicated = recorder.records(name);
  // Any other platform write would change only this copy: never pushed, and a later pull may overwrite it.
  if (!replicated && writesPlatformData(operations[name])) {
    throw ApiError.failedPrecondition(`${name} is not replicated: this Outpost is a replica of its remote, so the change would never reach it; make it on the remote`);
  }
  const translated = recorder.translate(name, req);
  if (!replicated) return await handler(ctx, translated);
  return await recorder.run(ctx, name, translated, () => handler(ctx, translated));
}
