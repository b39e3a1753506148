// The ordered list of every migration. Add new steps at the end; never edit a
// step that has shipped (databases in the field have already run it).
import type { Migration } from './types';
import { migration0001 } from './0001-core';

export const migrations: readonly Migration[] = [migration0001];
