// Import a test stand report (ATML) from the app: upload the file as a
// remote file of the test_reports entity, then ImportTestReport it. The
// engine parses and refuses; its message is the one shown.
import type { UploadedFileInput } from '../../../../src-shared/api/artifacts';
import type { Client } from '../../../../src-shared/client';
import type { TestReport } from './testReportService';

export type ImportPhase = 'upload' | 'import' | 'done';

export async function importAtml(client: Client, file: File, onPhase: (phase: ImportPhase) => void = () => {}): Promise<TestReport> {
  onPhase('upload');
  // The contract types `file` as the server-side upload record; the transport sends the File's content.
  const { remoteFile } = await client.UploadRemoteFile({ entityId: crypto.randomUUID(), entityType: 'test_reports', file: file as unknown as UploadedFileInput });
  onPhase('import');
  const { testReport } = await client.ImportTestReport({ remoteFileId: remoteFile.remoteFileId });
  onPhase('done');
  return testReport;
}
