import { describe, expect, test } from 'vitest';
import { FilePartHeaders, multipartBoundary } from './partHeaders';

const BOUNDARY = '0123456789abcdef0123456789abcdef';
const body = Buffer.from(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="entityId"\r\n\r\nrun-1\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="notfile"; filename="x.bin"\r\nContent-Encoding: br\r\n\r\nxx\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.csv.gz"\r\nContent-Type: text/csv\r\nContent-Encoding: gzip\r\n\r\n` +
    `--${BOUNDARY.slice(0, 10)} not a delimiter\r\n--${BOUNDARY}--\r\n`,
);

describe('FilePartHeaders', () => {
  test('finds the file part’s headers however the body is cut into chunks', () => {
    for (let size = 1; size <= body.length; size++) {
      const scan = new FilePartHeaders(BOUNDARY);
      for (let i = 0; i < body.length; i += size) scan.push(body.subarray(i, i + size));
      expect(scan.headers, `chunks of ${size}`).toEqual({
        'content-disposition': 'form-data; name="file"; filename="a.csv.gz"',
        'content-type': 'text/csv',
        'content-encoding': 'gzip',
      });
    }
  });

  test('no file part, or a part without a filename: no headers', () => {
    const scan = new FilePartHeaders(BOUNDARY);
    scan.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"\r\n\r\ntext\r\n--${BOUNDARY}--\r\n`));
    expect(scan.headers).toBeUndefined();
  });

  test('gives up on a part header past 16 KiB', () => {
    const scan = new FilePartHeaders(BOUNDARY);
    scan.push(Buffer.from(`--${BOUNDARY}\r\nX-Pad: ${'a'.repeat(20_000)}`));
    scan.push(Buffer.from(`\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n`));
    expect(scan.headers).toBeUndefined();
  });

  test('the boundary of a Content-Type, quoted or not', () => {
    expect(multipartBoundary(`multipart/form-data; boundary=${BOUNDARY}`)).toBe(BOUNDARY);
    expect(multipartBoundary('multipart/form-data; boundary="a b"; charset=utf-8')).toBe('a b');
    expect(multipartBoundary('multipart/form-data')).toBeUndefined();
  });
});
