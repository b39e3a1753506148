// The remote profile of a replica: its base URL (a setting in the database)
// and its API key (in a SecretStore, never in the database).
import type { Db } from '../db/database';
import { refuseLinkingDemoProfile } from '../db/demoProfile';
import { REPLICA_SETTING, type LinkChoices } from '../engine';
import { setPendingAdoption } from './pendingAdoption';
import type { SecretStore } from './secretStore';

export const REMOTE_URL_SETTING = 'sync.remote_url';

export interface RemoteProfile {
  readonly baseUrl: string;
  readonly apiKey: string;
}

export const secretName = (baseUrl: string) => `remote:${normalizeUrl(baseUrl)}`;

export function normalizeUrl(url: string): string {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`remote URL must be http(s): ${url}`);
  return u.origin + u.pathname.replace(/\/+$/, '');
}

/**
 * Links the database to a remote: from now on it is a replica (local writes are recorded in the outbox). `choices`
 * are stored with the link: a new link keeps only those, a new key for the same link keeps an earlier choice it
 * does not replace (pendingAdoption.ts).
 */
export async function saveProfile(db: Db, secrets: SecretStore, profile: RemoteProfile, choices: LinkChoices = {}): Promise<void> {
  refuseLinkingDemoProfile(db);
  const url = normalizeUrl(profile.baseUrl);
  const previous = db.setting(REMOTE_URL_SETTING);
  if (previous && previous !== url) {
    throw new Error(`this data directory is linked to ${previous}; a replica syncs with one remote`);
  }
  await secrets.set(secretName(url), profile.apiKey);
  db.tx(() => {
    db.setSetting(REMOTE_URL_SETTING, url);
    db.setSetting(REPLICA_SETTING, '1');
    if (!previous || choices.adoptPreLinkRecords) setPendingAdoption(db, choices.adoptPreLinkRecords);
  });
}

export async function loadProfile(db: Db, secrets: SecretStore): Promise<RemoteProfile | undefined> {
  const url = db.setting(REMOTE_URL_SETTING);
  if (!url) return undefined;
  const apiKey = await secrets.get(secretName(url));
  return apiKey ? { baseUrl: url, apiKey } : undefined;
}
