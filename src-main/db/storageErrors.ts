// SQLite's failures that are about the storage, not the request, as errors a
// user can act on (issue #19 item 9): they used to be a bare 500 "internal
// error". A full disk is RESOURCE_EXHAUSTED, a busy database UNAVAILABLE (try
// again), a damaged file DATA_LOSS with what to do about it.
import { ApiError, Code } from '../../src-shared/errors';

const DISK_FULL = new Set(['SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC', 'SQLITE_IOERR_SHMSIZE', 'ENOSPC', 'EDQUOT']);

/** A failure of the storage, as its ApiError: about the machine, never about one request's content. */
export class StorageError extends ApiError {}

/** The ApiError for a storage failure (SQLite or the file system), or undefined when `e` is something else. */
export function storageError(e: unknown): StorageError | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (DISK_FULL.has(code))
    return new StorageError(
      Code.RESOURCE_EXHAUSTED,
      'disk full: the change could not be stored and nothing was written; free some space and try again',
    );
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StorageError(Code.UNAVAILABLE, 'the database is busy with another write; nothing was changed, try again in a moment');
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new StorageError(
      Code.DATA_LOSS,
      `the database file is damaged (${code}); stop Outpost, keep a copy of the data directory, and restore it from a backup (or run sqlite3's .recover on a copy)`,
    );
  }
  if (code.startsWith('SQLITE_READONLY'))
    return new StorageError(Code.UNAVAILABLE, 'the database is read-only here (file permissions or a read-only disk); nothing was changed');
  if (code.startsWith('SQLITE_IOERR'))
    return new StorageError(Code.UNAVAILABLE, `the disk failed to read or write (${code}); nothing was changed, try again`);
  return undefined;
}

/** Thrown at open when the database file cannot be used as it is; the message says what to do. */
export class DatabaseUnusableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUnusableError';
  }
}
