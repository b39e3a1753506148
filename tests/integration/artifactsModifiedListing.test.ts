// What sync lists artifacts with (over real HTTP): the include_archived
// parameter (archived ones are state, so a replica must see them), and
// modified_date as a filter and order field (every version, link and archive
// moves it), with page tokens bound to the parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectViolation } from '../support/assertions';
import { startTestServer, type TestServer } from '../support/testServer';

let s: TestServer;
const ids: string[] = [];

beforeAll(async () => {
  s = await startTestServer();
  for (const title of ['one', 'two', 'three']) {
    const res = await s.api('POST', '/api/v1/artifacts', { title, content: { title } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(res.body.artifact.artifactId);
  }
  // Archiving 'one' makes it the most recently modified.
  expect((await s.api('POST', `/api/v1/artifacts/${ids[0]}:archive`, {})).status).toBe(200);
});
afterAll(async () => s.close());

const titles = (body: { artifacts: { title: string }[] }) => body.artifacts.map((a) => a.title);

describe('ListArtifacts for sync', () => {
  it('include_archived=true lists archived artifacts; order_by modified_date follows the last change', async () => {
    const all = await s.api('GET', '/api/v1/artifacts?include_archived=true&order_by=modified_date');
    expect(all.status).toBe(200);
    expect(titles(all.body)).toEqual(['two', 'three', 'one']);
    expect(all.body.artifacts[2].isArchived).toBe(true);
    const live = await s.api('GET', '/api/v1/artifacts?order_by=modified_date%20desc');
    expect(titles(live.body)).toEqual(['three', 'two']);
  });

  it('filters on modified_date', async () => {
    const all = await s.api('GET', '/api/v1/artifacts?include_archived=true&order_by=modified_date');
    const since = all.body.artifacts[2].modifiedDate as string;
    const res = await s.api(
      'GET',
      `/api/v1/artifacts?include_archived=true&filter=${encodeURIComponent(`modified_date >= timestamp('${since}')`)}`,
    );
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['one']);
  });

  it('a page token is bound to include_archived', async () => {
    const page = await s.api('GET', '/api/v1/artifacts?include_archived=true&page_size=1');
    expect(page.body.nextPageToken).not.toBe('');
    expectViolation(
      await s.api('GET', `/api/v1/artifacts?page_size=1&page_token=${encodeURIComponent(page.body.nextPageToken)}`),
      'page_token',
    );
  });
});
