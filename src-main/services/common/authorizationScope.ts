// What an authorization decision reads about a request: its database, who is asking, and whether this engine is a
// sync replica (where an organization none of whose policies has been pulled is left to the remote).
import type { AuthorizationScope } from '../../auth/cedar/authorize';
import type { Caller } from '../../auth/caller';
import type { RequestContext } from '../../engine';

export const authorizationScope = (ctx: RequestContext, caller: Caller = ctx.caller): AuthorizationScope => ({
  db: ctx.db,
  caller,
  replica: ctx.engine.replica?.writeRecorder() !== undefined,
});
