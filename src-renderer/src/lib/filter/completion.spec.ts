import { describe, expect, test } from 'vitest';
import { applySuggestion, completionsAt, type Vocabulary } from './completion';

const vocab: Vocabulary = {
  tags: ['needs-review', 'hardware', 'say "hi"'],
  assets: new Map([
    ['a-1', 'Raptor-Bench-A'],
    ['a-2', 'Raptor-Bench-B'],
  ]),
  users: ['ana.ruiz@outpost.local', 'kenji.sato@outpost.local'],
  runs: new Map([['r-1', 'Bench run 030']]),
};

const at = (text: string) => completionsAt(text, text.length, vocab);
const labels = (text: string) => at(text).items.map((i) => i.label);

describe('filter completion', () => {
  test('field names where a condition starts', () => {
    // The shortest field the word starts comes first (Tab inserts it): `st` is `state` before `start_time`.
    expect(labels('sta')).toEqual(['state', 'start_time']);
    expect(labels('st')[0]).toBe('state');
    expect(labels('name == "x" && ta')).toEqual(['tag_name']);
    expect(labels('!is_')).toEqual(['is_archived']);
    // Not in the middle of a comparison's value.
    expect(labels('name == na')).toEqual([]);
  });

  test('enum values after ==, and in a list', () => {
    expect(labels('state == ')).toEqual([
      'ANNOTATION_STATE_OPEN',
      'ANNOTATION_STATE_FLAGGED',
      'ANNOTATION_STATE_RESOLVED',
      'ANNOTATION_STATE_UNSPECIFIED',
    ]);
    expect(labels('state == FLA')).toEqual(['ANNOTATION_STATE_FLAGGED']);
    expect(labels('state in [ANNOTATION_STATE_OPEN, RES')).toEqual(['ANNOTATION_STATE_RESOLVED']);
    expect(labels('is_archived == f')).toEqual(['false']);
  });

  test('names inside strings: tags, assets (name or id), people, runs', () => {
    expect(labels('tag_name == "nee')).toEqual(['needs-review']);
    expect(labels('asset_name == "bench-b')).toEqual(['Raptor-Bench-B']);
    expect(at('asset_id == "B').items.map((i) => i.insert)).toEqual(['a-1"', 'a-2"']);
    expect(labels('assignee == "ana')).toEqual(['ana.ruiz@outpost.local']);
    expect(labels('run_id == "')).toEqual(['Bench run 030']);
    expect(labels('name == "')).toEqual([]);
  });

  test('applying replaces the word (or the string) and closes the quote once', () => {
    const text = 'state == fla';
    const c = at(text);
    expect(applySuggestion(text, c, c.items[0])).toEqual({ text: 'state == ANNOTATION_STATE_FLAGGED', caret: 33 });
    const s = 'tag_name == "sa" && x';
    const c2 = completionsAt(s, 15, vocab);
    expect(c2.items.map((i) => i.insert)).toEqual(['say \\"hi\\""']);
    expect(applySuggestion(s, c2, c2.items[0]).text).toBe('tag_name == "say \\"hi\\"" && x');
  });
});
