// The desktop app's two profiles: the user's own (the platform's data folder,
// which starts empty and is never seeded) and the demo (its own directory
// beside it, seeded with the demo dataset on first open, and never linked to a
// remote). The window asks which one it shows and asks for the other over
// PROFILE_CHANNEL; main checks the sender as it does for every invoke.
import { demoDataDir } from '../db/dataDir';
import { PROFILE_CHANNEL, type ProfileInfo, type ProfileKind } from './channels';
import type { InvokeEventLike, IpcMainLike } from './ipcBridge';

/** Where each profile lives, given the real profile's directory. */
export function profileFor(kind: ProfileKind, realDataDir: string): ProfileInfo {
  return { kind, dataDir: kind === 'demo' ? demoDataDir(realDataDir) : realDataDir };
}

export interface ProfileSwitchOptions {
  readonly isTrustedSender: (url: string) => boolean;
  readonly current: () => ProfileInfo;
  /** Closes the open profile's engine and opens `kind`'s; rejects with a sentence when it cannot be opened. */
  readonly open: (kind: ProfileKind) => Promise<ProfileInfo>;
}

/** One request on PROFILE_CHANNEL. Throws (the renderer's invoke rejects with the message) on anything else. */
export async function handleProfileRequest(
  options: ProfileSwitchOptions,
  event: InvokeEventLike,
  action: unknown,
  kind: unknown,
): Promise<ProfileInfo> {
  const url = event.senderFrame?.url;
  if (!url || !options.isTrustedSender(url)) throw new Error('profile request from an untrusted frame');
  if (action === 'current') return options.current();
  if (action === 'open' && (kind === 'real' || kind === 'demo')) return options.open(kind);
  throw new Error(`unknown profile request '${String(action).slice(0, 40)}'`);
}

export function registerProfileSwitch(ipcMain: IpcMainLike, options: ProfileSwitchOptions): () => void {
  ipcMain.handle(PROFILE_CHANNEL, (event, action, kind) => handleProfileRequest(options, event, action, kind));
  return () => ipcMain.removeHandler(PROFILE_CHANNEL);
}
