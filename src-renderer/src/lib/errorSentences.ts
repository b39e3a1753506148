// The one mapping from an error to the sentence a person reads: what was
// refused or failed and why, naming the record, in words (no gRPC code names,
// ids or API field names). Every view shows errors through ErrorMessage, which
// puts this sentence first and the code, the server's message and the ids
// behind a "Details" toggle.
import { LinkCheckFailure, type LinkCheckFailureReason } from '../../../src-shared/api/sync';
import type { Doing, ErrorInfo } from './errors';

/** Looks a record's or user's id up to its name, if the view has it. */
export type NameOf = (id: string) => string | undefined;

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
/** `Annotation::"…"`: a Cedar entity as the policy engine names it. */
const ENTITY = /\b([A-Z][A-Za-z]*)::"[^"]*"/g;
/** API field names read as words ("assigned_to_user_id" is the assignee, not an id). */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  assigned_to_user_id: 'assignee',
  created_by_user_id: 'author',
  modified_by_user_id: 'last editor',
  annotation_id: 'annotation',
  annotation_ids: 'annotations',
  organization_id: 'organization',
  run_id: 'run',
  linked_channels: 'linked channels',
  order_by: 'sort order',
  page_token: 'page position',
  page_size: 'page size',
  update_mask: 'changed fields',
};

/** A snake_case or lowerCamelCase API field name as words (`start_time` -> `start time`, `runId` -> `run`). */
export function fieldWords(field: string): string {
  const snake = field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const last = snake.split('.').at(-1) ?? snake;
  return FIELD_WORDS[last] ?? last.replace(/_ids?$/, (m) => (m === '_ids' ? 's' : '')).replace(/_/g, ' ');
}

/** A server message with its field names as words, entities and ids as names (or "a record"). */
export function inWords(message: string, nameOf: NameOf = () => undefined): string {
  return message
    .replace(ENTITY, (_, type: string) => `the ${type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`)
    .replace(UUID, (id) => {
      const name = nameOf(id);
      return name ? `'${name}'` : 'a record';
    })
    .replace(/\b[a-z]+(?:_[a-z0-9]+)+\b/g, fieldWords)
    .replace(/\b[a-z]+(?:[A-Z][a-z0-9]+)+\b/g, fieldWords);
}

const sentence = (text: string) => {
  const t = text.trim().replace(/[.:;,\s]+$/, '');
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[?!]$/.test(t) ? '' : '.'}`;
};

/** A field violation's description shown beside its field, as a sentence in words ("Unknown run 'Bench 3'."). */
export function fieldSentence(description: string, nameOf: NameOf = () => undefined): string {
  return sentence(inWords(description, nameOf));
}

/** The policy names a Cedar refusal gives (`forbidden by "no archive"`), if any. */
function decidingPolicies(message: string): string[] {
  const at = message.indexOf('forbidden by ');
  if (at < 0) return [];
  return [...message.slice(at).matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

/** What a field violation says, in words: "name: must not be empty" -> "the name must not be empty". */
function violationWords(field: string, description: string, nameOf: NameOf): string {
  const what = field ? `the ${fieldWords(field)}` : '';
  const why = inWords(description, nameOf);
  return what ? `${what}: ${why}` : why;
}

/**
 * A link the engine checked and refused (TestSyncRemote, ConfigureSyncRemote): which of the three steps failed. Said of
 * the remote, never of this tab's key or the engine (which answered).
 */
const LINK_CHECK_SENTENCES: Readonly<Record<LinkCheckFailureReason, string>> = {
  [LinkCheckFailure.unreachable]:
    'Not linked: nothing answered at that address as an Outpost or Sift server. Check the URL, and that the server is running and reachable from here.',
  [LinkCheckFailure.keyRefused]: 'Not linked: the server answered, but refused the API key. Check the key (it may have been revoked).',
  [LinkCheckFailure.identity]:
    'Not linked: the server accepted the key, but it could not say which user and organization the key belongs to, or they cannot be used here.',
};

/** The one sentence for an error, naming what was being done when `doing` is given. */
export function sentenceOf(error: ErrorInfo, nameOf: NameOf = () => undefined, doing: Doing | undefined = error.doing): string {
  if (error.linkCheck) return LINK_CHECK_SENTENCES[error.linkCheck];
  const act = doing ? `${doing.verb} ${doing.subject}` : '';
  const what = act || 'this';
  switch (error.code) {
    case 'PERMISSION_DENIED': {
      if (/organization's policies/.test(error.message)) {
        const policies = decidingPolicies(error.message);
        const by = policies.length ? ` (${policies.length === 1 ? 'policy' : 'policies'} ${policies.map((p) => `“${p}”`).join(', ')})` : '';
        return sentence(`Your organization's policy does not allow ${what}${by}`);
      }
      return sentence(`Outpost did not allow ${what}: ${inWords(error.message, nameOf)}`);
    }
    case 'NOT_FOUND':
      return sentence(`${act ? `Could not finish ${act}: it` : 'This record'} no longer exists here (deleted, or in another organization)`);
    case 'INVALID_ARGUMENT': {
      // A filter's error says where it went wrong ("… at column 7"): said of the filter as typed.
      const filterOnly = error.fieldViolations.length > 0 && error.fieldViolations.every((v) => v.field === 'filter');
      if (filterOnly) return sentence(`The filter was not understood: ${error.fieldViolations.map((v) => v.description).join('; ')}`);
      const because = error.fieldViolations.length
        ? error.fieldViolations.map((v) => violationWords(v.field, v.description, nameOf)).join('; ')
        : inWords(error.message, nameOf);
      return sentence(`${act ? `${act.charAt(0).toUpperCase()}${act.slice(1)} was refused` : 'That was refused'}: ${because}`);
    }
    case 'ALREADY_EXISTS':
      return sentence(`${act ? `Could not finish ${act}: ` : ''}${inWords(error.message, nameOf)}`);
    case 'FAILED_PRECONDITION':
    case 'OUT_OF_RANGE':
    case 'RESOURCE_EXHAUSTED':
      return sentence(`Could not finish ${what}: ${inWords(error.message, nameOf)}`);
    case 'ABORTED':
      return sentence(`${act ? `Could not finish ${act}: it` : 'It'} was changed elsewhere meanwhile; try again`);
    case 'UNAUTHENTICATED':
      return "This tab's API key is missing or no longer valid: open the App address that outpost serve printed again.";
    case 'UNIMPLEMENTED':
      return sentence(`This Outpost engine cannot do ${what} yet`);
    case 'TRANSPORT':
    case 'UNAVAILABLE':
      return sentence(`${act ? `Could not finish ${act}: the` : 'The'} Outpost engine did not answer. Is it still running?`);
    case 'DEADLINE_EXCEEDED':
      return sentence(`The engine took too long to answer${act ? ` while ${act}` : ''}; reload to see whether it happened`);
    default:
      return sentence(`Something went wrong in Outpost${act ? ` while ${act}` : ''}; the details say what`);
  }
}
