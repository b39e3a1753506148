// The desktop app's log: one file in the platform's log folder
// (app.getPath('logs'): ~/.config/Outpost/logs on Linux, ~/Library/Logs/Outpost
// on macOS, %APPDATA%\Outpost\logs on Windows), rotated at 5 MB (main.log ->
// main.old.log). The engine host's log lines and anything it prints come here
// through the supervisor. electron-log's Node logger: it registers no IPC
// channel a renderer could write through. Secrets never reach the file.
import { join } from 'node:path';
import log from 'electron-log/node';

export const LOG_FILE_NAME = 'main.log';
const MAX_BYTES = 5 * 1024 * 1024;

/** API keys (`op_…`), bearer tokens and `apiKey`/`api_key` values, wherever they appear in a line. */
export function redactSecrets(text: string): string {
  return text
    .replace(/\bBearer\s+[^\s"',]+/gi, 'Bearer [redacted]')
    .replace(/\bop_[A-Za-z0-9_-]{16,}/g, '[redacted]')
    .replace(/(["']?api_?key["']?\s*[:=]\s*["']?)[^"'\s,}]+/gi, '$1[redacted]');
}

export interface AppLog {
  readonly file: string;
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export function createAppLog(logsDir: string, options: { console?: boolean } = {}): AppLog {
  const file = join(logsDir, LOG_FILE_NAME);
  log.transports.file.resolvePathFn = () => file;
  log.transports.file.maxSize = MAX_BYTES;
  log.transports.console.level = options.console === false ? false : 'info';
  log.hooks.push((message) => ({
    ...message,
    data: message.data.map((d) =>
      typeof d === 'string' ? redactSecrets(d) : d instanceof Error ? redactSecrets(d.stack ?? d.message) : d,
    ),
  }));
  return {
    file,
    info: (message) => log.info(message),
    warn: (message) => log.warn(message),
    error: (message, error) => (error === undefined ? log.error(message) : log.error(message, error)),
  };
}
