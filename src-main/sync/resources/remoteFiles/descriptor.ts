// Remote files as a replicated resource: uploads only (see NOTES.md here).
import type { ReplicatedResource } from '../../resource';
import { remoteFileRows } from '../../../services/remoteFiles/remoteFileStore';
import { REMOTE_FILE } from './ids';
import { remoteFileSpecs } from './specs';
import { keptPreLink } from '../../preLinkCount';

export const remoteFiles: ReplicatedResource = {
  name: 'remote_files',
  records: [{ resource: REMOTE_FILE, rows: remoteFileRows }],
  specs: remoteFileSpecs,
  // (Uploads only: the remote's files are not listed.)
  pullers: [],
  preLink: [keptPreLink(REMOTE_FILE, 'remote files', 'remote_files', 'they carry files: upload them again after the link')],
};
