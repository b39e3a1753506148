// The headers of a multipart request's file part, read beside busboy: busboy
// 1.6 tells a file's name, type and transfer encoding but not its other part
// headers, and the platform's clients (sift_py, sift_client) send a gzip
// file's `Content-Encoding` there. Fed the same chunks before busboy sees
// them, so the file part's headers are known when busboy announces the file.
// Scanning stops at the first part named `file` that has a filename.

/** Part headers are short; past this, the scan gives up (busboy refuses such a part itself). */
const MAX_HEADER_BYTES = 16 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** The boundary of a multipart/form-data Content-Type, if it names one. */
export function multipartBoundary(contentType: string): string | undefined {
  const m = /;\s*boundary=(?:"([^"]{1,200})"|([^\s;]{1,200}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

function parseHeaders(block: Buffer): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

const isFilePart = (headers: Record<string, string>): boolean => {
  const disposition = headers['content-disposition'] ?? '';
  return /;\s*name="?file"?(;|$|\s)/i.test(disposition) && /;\s*filename\*?=/i.test(disposition);
};

export class FilePartHeaders {
  private readonly delimiter: Buffer;
  private pending = Buffer.alloc(0);
  private inHeader = false;
  /** The file part's headers (lowercase names) once scanned. */
  headers: Record<string, string> | undefined;
  private stopped = false;

  constructor(boundary: string) {
    this.delimiter = Buffer.from(`--${boundary}`, 'latin1');
  }

  push(chunk: Buffer): void {
    if (this.stopped) return;
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    for (;;) {
      if (this.inHeader) {
        const end = buf.indexOf(HEADER_END);
        // A part with no header at all starts with the blank line at once.
        const empty = buf.subarray(0, 2).equals(CRLF);
        if (end < 0 && !empty) {
          if (buf.length > MAX_HEADER_BYTES) this.stopped = true;
          this.pending = Buffer.from(buf);
          return;
        }
        const headers = empty ? {} : parseHeaders(buf.subarray(0, end));
        buf = buf.subarray(empty ? 2 : end + HEADER_END.length);
        this.inHeader = false;
        if (isFilePart(headers)) {
          this.headers = headers;
          this.stopped = true;
          this.pending = Buffer.alloc(0);
          return;
        }
      }
      const at = buf.indexOf(this.delimiter);
      if (at < 0) {
        // Keep what could be the start of a delimiter cut by the chunk's end.
        this.pending = Buffer.from(buf.subarray(Math.max(0, buf.length - this.delimiter.length - 1)));
        return;
      }
      const after = at + this.delimiter.length;
      if (buf.length < after + 2) {
        this.pending = Buffer.from(buf.subarray(at));
        return;
      }
      if (buf[after] === 0x0d && buf[after + 1] === 0x0a) this.inHeader = true;
      buf = buf.subarray(after + 2);
    }
  }
}
