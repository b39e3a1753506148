import { describe, expect, test } from 'vitest';
import { fakeClient } from '../testing/fakeClient';
import { savedSearch } from '../testing/moreFactories';
import { annotationQueryOf, deleteSavedSearch, parseSort, renameSavedSearch, saveAnnotationSearch } from './savedSearchService';

describe('savedSearchService', () => {
  test('an annotation query is saved as overview ANNOTATIONS + search term + order by', async () => {
    const fake = fakeClient().on('CreateSavedSearch', () => ({ savedSearch: savedSearch() }));
    await saveAnnotationSearch(fake.client, ' Flagged ', {
      filter: ' state == ANNOTATION_STATE_FLAGGED ',
      sort: { field: 'name', desc: false },
    });
    expect(fake.callsTo('CreateSavedSearch')).toEqual([
      { name: 'Flagged', properties: { overviewMode: 'ANNOTATIONS', searchTerm: 'state == ANNOTATION_STATE_FLAGGED', orderBy: 'name' } },
    ]);
  });

  test('annotationQueryOf reads it back; other overview modes are not annotation searches', () => {
    expect(annotationQueryOf(savedSearch({}, { searchTerm: 'x', orderBy: 'start_time desc' }))).toEqual({
      filter: 'x',
      sort: { field: 'start_time', desc: true },
    });
    expect(annotationQueryOf(savedSearch({}, {}))).toEqual({ filter: '', sort: { field: 'created_date', desc: true } });
    expect(annotationQueryOf(savedSearch({}, { overviewMode: 'RUNS' }))).toBeUndefined();
  });

  test('parseSort', () => {
    expect(parseSort('name')).toEqual({ field: 'name', desc: false });
    expect(parseSort(' modified_date DESC ')).toEqual({ field: 'modified_date', desc: true });
    expect(parseSort('bogus desc')).toEqual({ field: 'created_date', desc: true });
    expect(parseSort('name, start_time')).toEqual({ field: 'created_date', desc: true });
    expect(parseSort(undefined)).toEqual({ field: 'created_date', desc: true });
  });

  test('rename and delete', async () => {
    const fake = fakeClient()
      .on('UpdateSavedSearch', () => ({ savedSearch: savedSearch({ name: 'New' }) }))
      .on('DeleteSavedSearch', () => ({}));
    await renameSavedSearch(fake.client, 's1', ' New ');
    await deleteSavedSearch(fake.client, 's1');
    expect(fake.calls).toEqual([
      { name: 'UpdateSavedSearch', request: { savedSearch: { savedSearchId: 's1', name: 'New' }, updateMask: 'name' } },
      { name: 'DeleteSavedSearch', request: { savedSearchId: 's1' } },
    ]);
  });
});
