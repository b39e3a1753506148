// A link is checked before it is saved (issue #30 item 4): the remote answers
// as an Outpost or Sift API (Ping), accepts the key (GetMe) and says which user
// and organizations it belongs to. Each failure is FAILED_PRECONDITION with a
// google.rpc.ErrorInfo naming the step that failed (LinkCheckFailure), so a UI
// can say in words which of the three it was; nothing is stored on failure
// (the callers check before they save).
import { LINK_CHECK_DOMAIN, LinkCheckFailure, type LinkCheckFailureReason } from '../../src-shared/api/sync';
import { ApiError, Code } from '../../src-shared/errors';
import { TransportError } from '../../src-shared/httpRequest';
import type { Db } from '../db/database';
import { storedIdentity } from './identity';
import { Remote } from './remote';

/** How long each of the check's two requests may take (a link is made by a person waiting for the answer). */
const LINK_CHECK_TIMEOUT_MS = 10_000;

export interface LinkIdentity {
  readonly userId: string;
  readonly userEmail: string;
  readonly organizations: readonly { organizationId: string; name: string }[];
}

function linkRefused(reason: LinkCheckFailureReason, message: string): ApiError {
  return new ApiError(Code.FAILED_PRECONDITION, message, [
    { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: LINK_CHECK_DOMAIN, metadata: {} },
  ]);
}

const keyRefused = (e: unknown) => e instanceof ApiError && (e.code === Code.UNAUTHENTICATED || e.code === Code.PERMISSION_DENIED);
const why = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The remote's answer to who the key is, or the failed step as an ApiError (see linkRefused). */
export async function checkLink(
  db: Db,
  link: { baseUrl: string; apiKey: string },
  timeoutMs = LINK_CHECK_TIMEOUT_MS,
): Promise<LinkIdentity> {
  const remote = new Remote({ baseUrl: link.baseUrl, apiKey: link.apiKey, timeoutMs });
  const at = link.baseUrl;
  try {
    try {
      await remote.call('Ping', {});
    } catch (e) {
      if (keyRefused(e)) throw linkRefused(LinkCheckFailure.keyRefused, `not linked: ${at} refused the API key (${why(e)})`);
      if (e instanceof TransportError) throw linkRefused(LinkCheckFailure.unreachable, `not linked: nothing answers at ${at} (${why(e)})`);
      throw linkRefused(LinkCheckFailure.unreachable, `not linked: ${at} answers, but not as an Outpost or Sift API (ping: ${why(e)})`);
    }
    let me;
    try {
      me = await remote.call('GetMe', {});
    } catch (e) {
      if (keyRefused(e)) throw linkRefused(LinkCheckFailure.keyRefused, `not linked: ${at} refused the API key (${why(e)})`);
      if (e instanceof TransportError)
        throw linkRefused(LinkCheckFailure.unreachable, `not linked: ${at} stopped answering during the check (${why(e)})`);
      throw linkRefused(LinkCheckFailure.identity, `not linked: ${at} accepted the key but did not say whose it is (${why(e)})`);
    }
    if (!me.userId || me.organizations.length === 0)
      throw linkRefused(
        LinkCheckFailure.identity,
        `not linked: the key's user ${me.userEmail || me.userId} belongs to no organization on ${at}: there is nothing to sync with`,
      );
    // A replica belongs to one remote user: another user's key would push edits under someone else's name.
    const previous = storedIdentity(db);
    if (previous && previous.userId !== me.userId)
      throw linkRefused(
        LinkCheckFailure.identity,
        `not linked: this data directory syncs as ${previous.userName}; the API key belongs to ${me.userEmail}`,
      );
    return {
      userId: me.userId,
      userEmail: me.userEmail,
      organizations: me.organizations.map((o) => ({ organizationId: o.organizationId, name: o.organizationName })),
    };
  } finally {
    remote.close();
  }
}
