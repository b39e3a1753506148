import { describe, expect, it } from 'vitest';
import { deriveFileType, fileExtension } from './fileType';

describe('deriveFileType', () => {
  it.each([
    ['FILE', 'report.PDF', 'application/pdf', 'pdf'],
    ['FILE', 'data.tar.gz', 'application/gzip', 'gz'],
    ['FILE', 'photo.JPG', 'application/octet-stream', 'image'],
    ['FILE', 'scan', 'image/png', 'image'],
    ['FILE', 'notes', 'Text/Plain; charset=utf-8', 'plain'],
    ['FILE', 'README', 'application/octet-stream', 'file'],
    ['FILE', '', '', 'file'],
    ['FILE', '.bashrc', 'text/x-shellscript', 'x-shellscript'],
    ['FILE', 'telemetry.csv', 'text/csv', 'csv'],
    ['STRUCTURED', 'anything.txt', 'text/plain', 'json'],
  ])('%s %j (%s) -> %s', (cls, name, mime, want) => {
    expect(deriveFileType(`ARTIFACT_STORAGE_CLASS_${cls}` as never, name, mime)).toBe(want);
  });

  it('takes the last extension of the base name only', () => {
    expect(fileExtension('dir.v2/file')).toBe('');
    expect(fileExtension('a/b/c.Log')).toBe('log');
    expect(fileExtension('trailing.')).toBe('');
  });
});
