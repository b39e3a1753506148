// People and tags of the organization: who an annotation can be assigned to,
// who "me" is, and which tag names exist (for suggestions).
import type { Tag } from '../../../../src-shared/api/tags';
import type { Client } from '../../../../src-shared/client';

export interface Person {
  readonly userId: string;
  readonly userName: string;
}

/** All active users of the caller's organization (follows page tokens). */
export async function listPeople(client: Client, limit = 2000): Promise<Person[]> {
  const people: Person[] = [];
  let pageToken: string | undefined;
  do {
    const res = await client.ListActiveUsers({ pageSize: 500, ...(pageToken ? { pageToken } : {}) });
    people.push(...res.users.map((u) => ({ userId: u.userId, userName: u.userName })));
    pageToken = res.nextPageToken || undefined;
  } while (pageToken && people.length < limit);
  return people;
}

export async function whoAmI(client: Client): Promise<Person> {
  const me = await client.GetMe();
  return { userId: me.userId, userName: me.userEmail };
}

/** Every tag of the caller's organizations (follows page tokens up to `limit`). */
export async function listTags(client: Client, limit = 2000): Promise<Tag[]> {
  const tags: Tag[] = [];
  let pageToken: string | undefined;
  do {
    const res = await client.ListTags({ pageSize: 500, ...(pageToken ? { pageToken } : {}) });
    tags.push(...res.tags);
    pageToken = res.nextPageToken || undefined;
  } while (pageToken && tags.length < limit);
  return tags;
}

/** Tag names, sorted, for suggestions. */
export async function listTagNames(client: Client, limit = 2000): Promise<string[]> {
  const names = (await listTags(client, limit)).map((t) => t.name);
  return [...new Set(names)].sort((a, b) => a.localeCompare(b));
}

/** asset id -> asset name (annotations carry asset ids only). */
export async function listAssetNames(client: Client, limit = 5000): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  let pageToken: string | undefined;
  do {
    const res = await client.ListAssets({ pageSize: 1000, ...(pageToken ? { pageToken } : {}) });
    for (const a of res.assets) names.set(a.assetId, a.name);
    pageToken = res.nextPageToken || undefined;
  } while (pageToken && names.size < limit);
  return names;
}

/** run id -> run name (annotations carry the run id only). */
export async function listRunNames(client: Client, limit = 5000): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  let pageToken: string | undefined;
  do {
    const res = await client.ListRuns({ pageSize: 1000, ...(pageToken ? { pageToken } : {}) });
    for (const r of res.runs) names.set(r.runId, r.name);
    pageToken = res.nextPageToken || undefined;
  } while (pageToken && names.size < limit);
  return names;
}
