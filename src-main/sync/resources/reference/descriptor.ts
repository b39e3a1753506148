// The reference data (users, tags, assets, runs, channels): pulled only, and
// left out of a run that asks for no reference data (SyncOptions.reference;
// see NOTES.md here).
import type { ReplicatedResource } from '../../resource';
import { referencePullers } from './pullers';

export const reference: ReplicatedResource = {
  name: 'reference',
  records: [],
  pullers: referencePullers,
  referenceData: true,
};
