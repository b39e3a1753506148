// The ordered list of every migration. Add new steps at the end; never edit a
// step that has shipped (databases in the field have already run it).
import type { Migration } from './types';
import { migration0001 } from './0001-core';
import { migration0002 } from './0002-filter-indexes';
import { migration0003 } from './0003-saved-searches-policies-external-sync';
import { migration0004 } from './0004-remote-files-test-reports';
import { migration0005 } from './0005-rules-artifacts';
import { migration0006 } from './0006-reference';
import { migration0007 } from './0007-sync';
import { migration0008 } from './0008-sync-modified-indexes';
import { migration0009 } from './0009-id-unique-indexes';
import { migration0010 } from './0010-sync-refetch';
import { migration0011 } from './0011-saved-search-template-kind';
import { migration0012 } from './0012-api-key-owner';
import { migration0013 } from './0013-step-path-keys';
import { migration0014 } from './0014-metadata-archive-overall-modified';
import { migration0015 } from './0015-authorization';
import { migration0016 } from './0016-policy-version-pulled';
import { migration0017 } from './0017-units-channel-metadata';

export const migrations: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  migration0013,
  migration0014,
  migration0015,
  migration0016,
  migration0017,
];
