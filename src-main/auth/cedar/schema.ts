// The Cedar schema policies are validated against (and documented in the
// README): users in organizations and roles, one entity type per record type
// with the same attribute shape, one action per operation in its group.
// Generated from the operation table and the record types, so it cannot drift.
import { preparseSchema } from './cedarWasm';
import { ACTION_GROUPS, CEDAR_ACTIONS } from './actions';
import { RECORD_TYPES } from './recordTypes';

/** The attributes every record entity has (resource attributes are its Cedar tags). */
const RECORD_SHAPE = `{
  organization: Organization,
  creator: User,
  assignee?: User,
  tags: Set<String>,
  assets: Set<String>,
  assetTags: Set<String>,
}`;

function schemaText(): string {
  const lines = [
    '// Generated from src-shared/operations.ts and src-main/auth/cedar/recordTypes.ts.',
    'entity Organization;',
    'entity Role;',
    '// principal attributes are the user\'s tags (`principal.getTag("team")`), per organization',
    'entity User in [Organization, Role] = { name: String, roles: Set<String> } tags String;',
    '// resource attributes are the record\'s tags (`resource.getTag("program")`)',
    ...RECORD_TYPES.map((t) => `entity ${t.entity} in [Organization] = ${RECORD_SHAPE} tags String;`),
    ...ACTION_GROUPS.map((g) => `action "${g}";`),
  ];
  for (const action of CEDAR_ACTIONS.values()) {
    const resources = action.recordType ? `Organization, ${action.recordType.entity}` : 'Organization';
    lines.push(`action "${action.name}" in ["${action.group}"] appliesTo { principal: [User], resource: [${resources}] };`);
  }
  return lines.join('\n') + '\n';
}

export const CEDAR_SCHEMA = schemaText();
export const SCHEMA_NAME = 'outpost';

let preparsed = false;
/** Parses the schema once per process (Cedar keeps it by name). */
export function ensureSchema(): string {
  if (!preparsed) {
    const answer = preparseSchema(SCHEMA_NAME, CEDAR_SCHEMA);
    if (answer.type === 'failure') throw new Error(`the Cedar schema does not parse: ${answer.errors.map((e) => e.message).join('; ')}`);
    preparsed = true;
  }
  return SCHEMA_NAME;
}
