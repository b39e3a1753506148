// The renderer's Content-Security-Policy: one value for `outpost serve` (HTTP
// header) and the desktop window (app:// responses). Its own module so the
// Electron main process can send it without loading the HTTP server (and,
// through it, the engine and SQLite).
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
