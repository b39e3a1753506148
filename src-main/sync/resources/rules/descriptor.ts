// Rules: pulled only (no rule write is replicated; see NOTES.md here).
import type { ReplicatedResource } from '../../resource';
import { rulesPuller } from './puller';

export const rules: ReplicatedResource = {
  name: 'rules',
  records: [],
  pullers: [rulesPuller],
};
