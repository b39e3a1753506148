// The type every service handler has: one function per operation of the table,
// taking the request as validated by the operation's zod schema.
import type { z } from 'zod';
import type { OperationDef, RequestOf } from '../../../src-shared/api/operation';
import type { RequestContext } from '../../engine';
import type { JsonText } from './jsonText';

export type ResponseInput<O extends OperationDef> = z.input<O['response']>;

/** JSON handlers return the response object; binary handlers return bytes and a content type. */
export interface BinaryResult {
  readonly contentType: string;
  readonly fileName?: string;
  readonly body: NodeJS.ReadableStream | Buffer;
  readonly size?: number;
}

export type Handler<O extends OperationDef> = (
  ctx: RequestContext,
  req: RequestOf<O>,
) => NonNullable<O['output']> extends 'binary'
  ? BinaryResult | Promise<BinaryResult>
  : ResponseInput<O> | JsonText | Promise<ResponseInput<O> | JsonText>;

export type HandlerMap<Ops extends Record<string, OperationDef>> = { readonly [K in keyof Ops]: Handler<Ops[K]> };

/** Whether a handler answered asynchronously (a write that must run inside a transaction cannot). */
export const isPromise = (v: unknown): v is Promise<unknown> => !!v && typeof (v as { then?: unknown }).then === 'function';
