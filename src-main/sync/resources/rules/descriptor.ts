// Rules: pulled only (no rule write is replicated; see NOTES.md here).
import type { ReplicatedResource } from '../../resource';
import { rulesPuller } from './puller';
import { keptPreLink } from '../../preLinkCount';

export const rules: ReplicatedResource = {
  name: 'rules',
  records: [],
  // (No rule write is replicated.)
  specs: [],
  pullers: [rulesPuller],
  preLink: [keptPreLink('rule', 'rules', 'rules', 'rules are made on the platform (no rule write is synced)')],
};
