// The ordered list of every migration. Add new steps at the end; never edit a
// step that has shipped (databases in the field have already run it).
import type { Migration } from './types';
import { migration0001 } from './0001-core';
import { migration0003 } from './0003-saved-searches-policies-external-sync';
import { migration0004 } from './0004-remote-files-test-reports';
import { migration0006 } from './0006-reference';

export const migrations: readonly Migration[] = [migration0001, migration0003, migration0004, migration0006];
