// An artifact's file_type (a filterable, sortable short name), derived from
// its storage class, file name and MIME type:
//   structured artifact                          -> json
//   an image (image/* MIME type or image suffix) -> image
//   a file name with an extension                -> the extension, lowercased
//   no extension, a specific MIME type           -> the MIME subtype, lowercased
//   nothing usable (no name/extension, no type or application/octet-stream) -> file
import type { ArtifactStorageClassName } from '../../../src-shared/api/artifacts';

const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'svg', 'tif', 'tiff', 'heic', 'heif', 'ico', 'avif']);
/** MIME types that say nothing about the content. */
const GENERIC_MIME_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);

export function fileExtension(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  // ".bashrc" has no extension; "notes." neither.
  if (dot <= 0 || dot === base.length - 1) return '';
  const ext = base.slice(dot + 1).toLowerCase();
  return /^[a-z0-9_+-]{1,32}$/.test(ext) ? ext : '';
}

/** "Text/CSV; charset=utf-8" -> "text/csv". */
export function normalizeMimeType(mimeType: string): string {
  return mimeType.split(';')[0].trim().toLowerCase();
}

export function deriveFileType(storageClass: ArtifactStorageClassName, fileName: string, mimeType: string): string {
  if (storageClass === 'ARTIFACT_STORAGE_CLASS_STRUCTURED') return 'json';
  const mime = normalizeMimeType(mimeType);
  const ext = fileExtension(fileName);
  if (mime.startsWith('image/') || IMAGE_EXTENSIONS.has(ext)) return 'image';
  if (ext) return ext;
  if (!GENERIC_MIME_TYPES.has(mime)) {
    const subtype = mime.split('/')[1];
    if (subtype) return subtype;
  }
  return 'file';
}
