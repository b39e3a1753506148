// The engine's view of its remote profile (ReplicaCapabilities.remoteProfile): what the
// sync operations read, configure and remove. The URL is a database setting,
// the key lives only in the SecretStore (see profile.ts).
import { ApiError, Code } from '../../src-shared/errors';
import type { Db } from '../db/database';
import { refuseLinkingDemoProfile } from '../db/demoProfile';
import type { RemoteProfileStore } from '../engine';
import { loadProfile, normalizeUrl, REMOTE_URL_SETTING, saveProfile, secretName } from './profile';
import { pendingAdoption, setPendingAdoption } from './pendingAdoption';
import type { SecretStore } from './secretStore';

/** Saving a profile links the database: it becomes a replica, whose next writes the outbox records (replica.ts). */
export function createRemoteProfileStore(db: Db, secrets: SecretStore): RemoteProfileStore {
  const read = async () => {
    const baseUrl = db.setting(REMOTE_URL_SETTING);
    if (!baseUrl) return undefined;
    return {
      baseUrl,
      hasApiKey: (await secrets.get(secretName(baseUrl))) !== undefined,
      adoptPreLinkRecords: pendingAdoption(db) ?? null,
    };
  };
  const candidate = async (baseUrl: string, apiKey: string | undefined) => {
    // Before the key is stored: a demo profile keeps nothing of a refused link.
    refuseLinkingDemoProfile(db);
    const url = normalizeUrl(baseUrl);
    const linked = db.setting(REMOTE_URL_SETTING);
    if (linked && linked !== url) {
      // A replica holds one remote's ids and cursors: switching silently would mix two servers' data.
      const description = `this database syncs with ${linked}; remove that remote first to link another`;
      throw new ApiError(Code.FAILED_PRECONDITION, `base_url: ${description}`, [
        { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'base_url', description }] },
      ]);
    }
    const key = apiKey ?? (await loadProfile(db, secrets))?.apiKey;
    if (!key) throw ApiError.invalid('api_key', 'is required: no key is stored for this remote yet');
    return { baseUrl: url, apiKey: key };
  };
  return {
    read,
    candidate,
    async save(baseUrl, apiKey, verify) {
      const link = await candidate(baseUrl, apiKey);
      const choices = await verify?.(link);
      try {
        await saveProfile(db, secrets, link, choices);
      } catch (e) {
        // E.g. no OS keyring for Electron's safeStorage: say so rather than a bare INTERNAL.
        throw ApiError.failedPrecondition(`the API key could not be stored: ${(e as Error).message}`);
      }
      return (await read())!;
    },
    async remove() {
      const url = db.setting(REMOTE_URL_SETTING);
      if (!url) return;
      await secrets.delete(secretName(url));
      db.tx(() => {
        db.run('DELETE FROM settings WHERE key = ?', [REMOTE_URL_SETTING]);
        setPendingAdoption(db, undefined);
      });
    },
  };
}
