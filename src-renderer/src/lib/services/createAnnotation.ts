// The create-annotation form's request: what the reviewer typed (names from
// the local reference data) turned into one CreateAnnotation request. The
// engine enforces the rules (a run, an asset or a channel; end after start):
// the form shows its messages by field rather than guessing them.
import type { CreateAnnotationInput } from '../../../../src-shared/api/annotations';
import type { Client } from '../../../../src-shared/client';
import type { Annotation, ReviewState } from './annotationService';
import { parseTags } from './annotationService';
import { parseTimestamp } from '../../../../src-shared/api/time';

export interface AnnotationDraft {
  name: string;
  description: string;
  startTime: string;
  endTime: string;
  type: 'ANNOTATION_TYPE_DATA_REVIEW' | 'ANNOTATION_TYPE_PHASE';
  state: ReviewState;
  assigneeId: string;
  /** Run name or id as typed. */
  run: string;
  /** Asset names, comma-separated. */
  assets: string;
  /** Channel names, comma-separated. */
  channels: string;
  tags: string;
  /** `key=value` lines; numbers and true/false keep their type. */
  metadata: string;
}

export function emptyDraft(now = new Date()): AnnotationDraft {
  const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    name: '',
    description: '',
    startTime: iso(new Date(now.getTime() - 60_000)),
    endTime: iso(now),
    type: 'ANNOTATION_TYPE_DATA_REVIEW',
    state: 'ANNOTATION_STATE_OPEN',
    assigneeId: '',
    run: '',
    assets: '',
    channels: '',
    tags: '',
    metadata: '',
  };
}

type Metadata = NonNullable<CreateAnnotationInput['metadata']>[number];

function metadataOf(text: string): Metadata[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const eq = line.indexOf('=');
      const name = (eq < 0 ? line : line.slice(0, eq)).trim();
      const raw = eq < 0 ? '' : line.slice(eq + 1).trim();
      if (raw === 'true' || raw === 'false')
        return { key: { name, type: 'METADATA_KEY_TYPE_BOOLEAN' }, booleanValue: raw === 'true' } as Metadata;
      if (raw !== '' && Number.isFinite(Number(raw)))
        return { key: { name, type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: Number(raw) } as Metadata;
      return { key: { name, type: 'METADATA_KEY_TYPE_STRING' }, stringValue: raw } as Metadata;
    });
}

/** A problem of a draft found before sending, by the request field the form shows it at, in words. */
export interface DraftProblem {
  readonly field: 'name' | 'start_time' | 'end_time' | 'assets';
  readonly message: string;
}

/** What the engine would refuse, said in words before anything is sent (the engine still decides). */
export function checkCreateDraft(d: AnnotationDraft): DraftProblem[] {
  const problems: DraftProblem[] = [];
  if (!d.name.trim()) problems.push({ field: 'name', message: 'Give the annotation a name.' });
  const start = parseTimestamp(d.startTime.trim());
  const end = parseTimestamp(d.endTime.trim());
  const example = 'write it as 2026-03-01T14:05:00Z (UTC) or with an offset, 2026-03-01T15:05:00+01:00';
  if (start === null) problems.push({ field: 'start_time', message: `The start is not a date and time: ${example}.` });
  if (end === null) problems.push({ field: 'end_time', message: `The end is not a date and time: ${example}.` });
  if (start !== null && end !== null && end < start) problems.push({ field: 'end_time', message: 'The end must not be before the start.' });
  if (!d.run.trim() && parseTags(d.assets).length === 0 && parseTags(d.channels).length === 0)
    problems.push({
      field: 'assets',
      message: 'Choose a run, an asset or a channel: an annotation belongs to at least one (tags alone are not enough).',
    });
  return problems;
}

/** Finds the id of a name (or accepts an id) in an id -> name map; undefined when it is neither. */
export function idOf(typed: string, names: ReadonlyMap<string, string>): string | undefined {
  const t = typed.trim();
  if (!t) return undefined;
  if (names.has(t)) return t;
  for (const [id, name] of names) if (name === t) return id;
  return undefined;
}

/** The request for a draft; run and channels resolve through the local names (unknown ones are sent as typed for the engine to refuse). */
export function createRequestOf(d: AnnotationDraft, runs: ReadonlyMap<string, string>, channels: ReadonlyMap<string, string>) {
  const runId = idOf(d.run, runs) ?? (d.run.trim() || undefined);
  const linkedChannels = parseTags(d.channels).map((c) => ({ channel: { channelId: idOf(c, channels) ?? c } }));
  const assets = parseTags(d.assets);
  const tags = parseTags(d.tags);
  const metadata = metadataOf(d.metadata);
  return {
    name: d.name.trim(),
    ...(d.description.trim() ? { description: d.description.trim() } : {}),
    startTime: d.startTime.trim(),
    endTime: d.endTime.trim(),
    annotationType: d.type,
    ...(d.type === 'ANNOTATION_TYPE_PHASE' ? {} : { state: d.state }),
    ...(d.assigneeId ? { assignToUserId: d.assigneeId } : {}),
    ...(runId ? { runId } : {}),
    ...(assets.length ? { assets } : {}),
    ...(linkedChannels.length ? { linkedChannels } : {}),
    ...(tags.length ? { tags } : {}),
    ...(metadata.length ? { metadata } : {}),
  };
}

export async function createAnnotation(client: Client, request: ReturnType<typeof createRequestOf>): Promise<Annotation> {
  return (await client.CreateAnnotation(request)).annotation;
}

/** A run's time range (for "use the run's times"); undefined parts when the run has none. */
export async function runTimes(client: Client, runId: string): Promise<{ start?: string; stop?: string }> {
  const { run } = await client.GetRun({ runId });
  return { start: run.startTime, stop: run.stopTime };
}

/** id -> name of channels (for the channel picker). */
export async function listChannelNames(client: Client, limit = 10_000): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  let pageToken: string | undefined;
  do {
    const res = await client.ListChannels({ pageSize: 1000, ...(pageToken ? { pageToken } : {}) });
    for (const c of res.channels) names.set(c.channelId, c.name);
    pageToken = res.nextPageToken || undefined;
  } while (pageToken && names.size < limit);
  return names;
}
