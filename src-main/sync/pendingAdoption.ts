// The choice, made when linking, to send the records made before the link to
// the remote (issue #30 item 4: "adopt them, or keep them here"). Adopting needs
// the remote user and its organizations' reference data here, which only a
// first sync brings; so the choice is the engine's, stored with the link (a
// setting written in the link's transaction, profile.ts), and the first run
// applies it whoever starts it: the background scheduler, "Sync now", `outpost
// sync`. It survives a closed window and a restarted engine; removing or
// replacing the link forgets it. The adoption itself is AdoptPreLinkRecords,
// run through invoke() as the owner acting as the remote user (as `outpost
// sync --adopt-local` runs it).
import { ApiError } from '../../src-shared/errors';
import type { Db } from '../db/database';
import { StorageError } from '../db/storageErrors';
import type { Engine, LinkChoices } from '../engine';
import { invoke } from '../services/invoke';
import { localCaller } from './identity';
import type { SyncEvent } from './session';

export const PENDING_ADOPTION_SETTING = 'sync.adopt_pre_link_records';

type PendingAdoption = NonNullable<LinkChoices['adoptPreLinkRecords']>;

export function pendingAdoption(db: Db): PendingAdoption | undefined {
  const text = db.setting(PENDING_ADOPTION_SETTING);
  return text ? (JSON.parse(text) as PendingAdoption) : undefined;
}

/** Stores the choice (undefined: none waits); inside the caller's transaction. */
export function setPendingAdoption(db: Db, choice: PendingAdoption | undefined): void {
  if (choice) db.setSetting(PENDING_ADOPTION_SETTING, JSON.stringify({ organizationId: choice.organizationId }));
  else db.run('DELETE FROM settings WHERE key = ?', [PENDING_ADOPTION_SETTING]);
}

/**
 * Runs the adoption waiting since the link, if any (runSync calls it once the run has read the remote user and pulled,
 * before it pushes, so what it queues goes in the same run). Done, the choice is forgotten; refused (the organization
 * is no longer the user's, say), it is forgotten too, with a warning: the records stay counted here, and can be sent
 * from the Sync view. A storage failure keeps it for the next run. Adopting twice is adopting once, so a crash
 * between the adoption and forgetting the choice sends nothing twice.
 */
export async function adoptAsChosen(engine: Engine, emit: (e: SyncEvent) => void): Promise<void> {
  const { db } = engine;
  const choice = pendingAdoption(db);
  const acting = localCaller(db);
  if (!choice || !acting) return;
  try {
    await invoke({ engine, db, caller: { ...acting, owner: true } }, 'AdoptPreLinkRecords', choice);
  } catch (e) {
    if (!(e instanceof ApiError) || e instanceof StorageError) throw e;
    emit({ type: 'warning', message: `the records made before the link were not sent as chosen: ${e.message}` });
  }
  setPendingAdoption(db, undefined);
}
