// Why a profile could not be opened at start, in a sentence for the window's
// error box: the directory named, what to do, and that nothing was changed.
// Never a stack (that goes to the log).
import { DataDirBusyError, describeHolder } from '../db/dataDirLock';
import { DatabaseUnusableError } from '../db/storageErrors';

const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_READONLY_DIRECTORY']);
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

export function describeOpenFailure(dataDir: string, error: unknown): string {
  if (error instanceof DataDirBusyError) {
    return `${dataDir} is in use by ${describeHolder(error.holder)}: stop it (or close the other Outpost window), then start Outpost again. Nothing was changed.`;
  }
  if (error instanceof DatabaseUnusableError) return `The profile in ${dataDir} cannot be used: ${error.message}.`;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && NOT_WRITABLE.has(code)) {
    return `Outpost cannot write to its profile folder ${dataDir} (${code}): make the folder writable by your user, or start Outpost with OUTPOST_DATA_DIR set to another folder. Nothing was changed.`;
  }
  if (typeof code === 'string' && DISK_FULL.has(code)) {
    return `The disk holding ${dataDir} is full (${code}): free some space, then start Outpost again. Nothing was overwritten.`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `The profile in ${dataDir} could not be opened: ${message}. The log file has the details (Help › Open Logs Folder).`;
}
