// One sync at a time per database, across processes (the app's scheduler, a
// CLI `outpost sync`): a lease in the settings table naming the holder's pid.
// A holder that died (kill -9) leaves a lease whose pid is gone: it is taken over.
import { hostname } from 'node:os';
import type { Db } from '../db/database';

const LOCK_SETTING = 'sync.lock';
const LEASE_MS = 10 * 60_000;

interface Lease {
  pid: number;
  host: string;
  token: string;
  until: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class SyncBusyError extends Error {
  constructor(holder: Lease) {
    super(`another sync is running on this data directory (pid ${holder.pid})`);
    this.name = 'SyncBusyError';
  }
}

export interface SyncLock {
  renew(): void;
  release(): void;
}

export function acquireSyncLock(db: Db): SyncLock {
  const token = `${process.pid}:${Math.random().toString(36).slice(2)}`;
  const write = () =>
    db.setSetting(
      LOCK_SETTING,
      JSON.stringify({ pid: process.pid, host: hostname(), token, until: Date.now() + LEASE_MS } satisfies Lease),
    );
  // IMMEDIATE: two processes must not both read "free" and both write.
  db.raw
    .transaction(() => {
      const text = db.setting(LOCK_SETTING);
      if (text) {
        const held = JSON.parse(text) as Lease;
        const stale = held.until < Date.now() || (held.host === hostname() && !alive(held.pid));
        if (!stale) throw new SyncBusyError(held);
      }
      write();
    })
    .immediate();
  const mine = () => {
    const text = db.setting(LOCK_SETTING);
    return !!text && (JSON.parse(text) as Lease).token === token;
  };
  return {
    renew: () => db.tx(() => mine() && write()),
    release: () => db.tx(() => mine() && db.run('DELETE FROM settings WHERE key = ?', [LOCK_SETTING])),
  };
}

/** Whether a live process holds the sync lease (a `syncing` status left by a killed process is not). */
export function syncLockHeld(db: Db): boolean {
  const text = db.setting(LOCK_SETTING);
  if (!text) return false;
  const held = JSON.parse(text) as Lease;
  return held.until >= Date.now() && alive(held.pid);
}
