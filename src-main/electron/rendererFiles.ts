// Serves the built renderer to the window over `app://outpost/` (a privileged,
// standard, secure scheme): a stable origin for the sender check, and real
// response headers, so the Content-Security-Policy is the same header
// `outpost serve` sends. Only files under the renderer directory are served.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../http/contentSecurityPolicy';

export const APP_SCHEME = 'app';
export const APP_HOST = 'outpost';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

export { CONTENT_SECURITY_POLICY };

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export interface RendererResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer | string;
}

/** The response for one app:// request (a pure function of the URL and the files). */
export async function rendererResponse(rendererDir: string, requestUrl: string): Promise<RendererResponse> {
  const notFound: RendererResponse = { status: 404, headers: { 'Content-Type': 'text/plain', ...SECURITY_HEADERS }, body: 'Not Found' };
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return notFound;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return notFound;
  const root = resolve(rendererDir);
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return notFound;
  }
  const file = normalize(join(root, pathname === '/' ? 'index.html' : pathname));
  if (!file.startsWith(root + sep)) return notFound;
  try {
    const body = await readFile(file);
    return {
      status: 200,
      headers: { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', ...SECURITY_HEADERS },
      body,
    };
  } catch {
    return notFound;
  }
}
