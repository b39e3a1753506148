// What a batch operation (`eachAs` in the operation table) runs: its items, each
// one operation's request as that operation validates it, and how the batch
// answers from their responses. invoke() runs the items, inside the batch's one
// transaction, exactly as if each had been sent alone.
import type { OperationName } from '../../../src-shared/operations';
import type { RequestContext } from '../../engine';
import type { RowGate } from '../../auth/cedar/authorize';

export interface BatchItem {
  readonly operation: OperationName;
  /** The request as the operation's schema produces it (built by the engine from the batch's validated request). */
  readonly request: unknown;
}

export interface BatchPlan {
  readonly items: readonly BatchItem[];
  /** Where an item's error is named in the batch's request (`records[2]`); undefined: the item's own error names it. */
  itemField?(index: number): string | undefined;
  /** The batch's response, from each item's response in order. */
  answer(responses: readonly unknown[]): unknown;
}

/** What a plan may ask of invoke: the row gate a list operation would apply for this caller (the one door for reads). */
export interface PlanContext extends RequestContext {
  listGate(operation: OperationName, request: Record<string, unknown>): RowGate | undefined;
}

/** Makes a batch's plan from its validated request; runs inside the batch's transaction. */
export type BatchPlanner<Req> = (ctx: PlanContext, request: Req) => BatchPlan;
