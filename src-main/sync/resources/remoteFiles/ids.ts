// Remote files as a replicated resource: only uploads are pushed (the bytes of
// a test report to import, or any other upload); remote files are not pulled.
// When the remote creates an upload, the local row and the reports imported
// from it take the remote id (the content store path is kept in content_path,
// so the bytes stay where they are).

export const REMOTE_FILE = 'remote_file';
