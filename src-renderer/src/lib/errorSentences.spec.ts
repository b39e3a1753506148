import { describe, expect, test } from 'vitest';
import { ApiError, Code } from '../../../src-shared/errors';
import { TransportError } from '../../../src-shared/httpRequest';
import { failedWhile, toErrorInfo } from './errors';
import { fieldSentence, fieldWords, inWords, sentenceOf } from './errorSentences';

const CODES = /INVALID_ARGUMENT|PERMISSION_DENIED|NOT_FOUND|FAILED_PRECONDITION|TRANSPORT|UNAVAILABLE|INTERNAL/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-/;

describe('sentenceOf', () => {
  test('a policy refusal names the action, the record and the deciding policy, no code or id', () => {
    const refused = new ApiError(
      Code.PERMISSION_DENIED,
      'BatchArchiveAnnotations (action group archive) on Annotation::"976944bc-1c4e-4a41-9a0f-6a3b2f1d2e3c" is not allowed by the organization\'s policies: forbidden by "No archiving #1"',
    );
    const text = sentenceOf(failedWhile(refused, 'archiving', "'Chamber pressure dip'"));
    expect(text).toBe("Your organization's policy does not allow archiving 'Chamber pressure dip' (policy “No archiving #1”).");
  });

  test('validation errors name the field in words', () => {
    const text = sentenceOf(failedWhile(ApiError.invalid('assigned_to_user_id', 'unknown user'), 'assigning', '3 annotations'));
    expect(text).toBe('Assigning 3 annotations was refused: the assignee: unknown user.');
    expect(inWords('needs a run_id, assets or linked_channels')).toBe('needs a run, assets or linked channels');
    expect(fieldWords('startTime')).toBe('start time');
    expect(fieldWords('annotation.tag_ids')).toBe('tags');
  });

  test('a filter error is said of the filter, with its position', () => {
    expect(sentenceOf(toErrorInfo(ApiError.invalid('filter', "undeclared reference to 'nmae' at column 1")))).toBe(
      "The filter was not understood: undeclared reference to 'nmae' at column 1.",
    );
  });

  test('ids become the names the view knows, else "a record"', () => {
    const id = '976944bc-1c4e-4a41-9a0f-6a3b2f1d2e3c';
    const names = (x: string) => (x === id ? 'Ana Ruiz' : undefined);
    expect(sentenceOf(toErrorInfo(ApiError.failedPrecondition(`${id} is not a member`)), names)).toBe(
      "Could not finish this: 'Ana Ruiz' is not a member.",
    );
    expect(sentenceOf(toErrorInfo(ApiError.failedPrecondition(`${id} is not a member`)))).toBe(
      'Could not finish this: a record is not a member.',
    );
  });

  test('no code names or ids for any code', () => {
    for (const code of Object.values(Code)) {
      const info = failedWhile(new ApiError(code, 'x 976944bc-1c4e-4a41-9a0f-6a3b2f1d2e3c'), 'saving', "'A'");
      const text = sentenceOf(info);
      expect(text).not.toMatch(CODES);
      expect(text).not.toMatch(UUID);
      expect(text).toMatch(/[.?]$/);
    }
    expect(sentenceOf(toErrorInfo(new TransportError('GET /x: fetch failed')))).toBe(
      'The Outpost engine did not answer. Is it still running?',
    );
  });
});

describe('fieldSentence', () => {
  test("a field's problem as the engine words it becomes a sentence without API names", () => {
    expect(fieldSentence("unknown run 'Bench 3'")).toBe("Unknown run 'Bench 3'.");
    expect(fieldSentence('must not be before start_time')).toBe('Must not be before start time.');
    expect(fieldSentence('an annotation needs at least one of run_id, assets or linked_channels')).toBe(
      'An annotation needs at least one of run, assets or linked channels.',
    );
  });
});
