// Import a test stand report (ATML) from the app: upload the file as a
// remote file of the test_reports entity, then ImportTestReport it. The
// engine parses and refuses; its message is the one shown.
import type { UploadedFileInput } from '../../../../src-shared/api/artifacts';
import type { Client } from '../../../../src-shared/client';
import type { TestReport } from './testReportService';

export type ImportPhase = 'upload' | 'import' | 'done';

export interface ImportListeners {
  readonly onPhase?: (phase: ImportPhase) => void;
  /** The upload's bytes sent so far, of `total` (as the transport reports them). */
  readonly onUploadProgress?: (sent: number, total: number) => void;
}

export async function importAtml(
  client: Client,
  file: File,
  { onPhase = () => {}, onUploadProgress }: ImportListeners = {},
): Promise<TestReport> {
  onPhase('upload');
  // The contract types `file` as the server-side upload record; the transport sends the File's content.
  const upload = { entityId: crypto.randomUUID(), entityType: 'test_reports', file: file as unknown as UploadedFileInput };
  const { remoteFile } = await client.UploadRemoteFile(upload, { onUploadProgress });
  onPhase('import');
  const { testReport } = await client.ImportTestReport({ remoteFileId: remoteFile.remoteFileId });
  onPhase('done');
  return testReport;
}
