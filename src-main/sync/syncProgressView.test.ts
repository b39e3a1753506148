// What `outpost sync` shows while it runs: on a terminal, bars per resource
// with counts and rates (cli-progress writing to a TTY stream); elsewhere the
// plain lines a log or CI can read.
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { SyncProgress } from './session';
import { plainProgressView, terminalProgressView } from './syncProgressView';

const progress = (p: Partial<SyncProgress>): SyncProgress => ({
  phase: 'pull',
  pulled: {},
  pushed: 0,
  failed: 0,
  retries: 0,
  recovered: 0,
  conflicts: 0,
  pendingAtStart: 0,
  ...p,
});

describe('sync progress', () => {
  test('not on a terminal: plain lines', () => {
    const lines: string[] = [];
    const view = plainProgressView((l) => lines.push(l));
    view.event({ type: 'phase', phase: 'pull' });
    view.event({ type: 'pulled', resource: 'annotations', rows: 1200 });
    view.event({ type: 'progress', progress: progress({ phase: 'push', pushed: 3, pendingAtStart: 7 }) });
    view.event({ type: 'entry-failed', seq: 9, operation: 'UpdateAnnotation', message: 'refused' });
    view.stop();
    expect(lines).toEqual(['pull...', '  pulled 1200 annotations', '  pushed 3/7', '  refused #9 UpdateAnnotation: refused']);
  });

  test('on a terminal: a bar per resource with its count, and one for the push', async () => {
    const stream = Object.assign(new PassThrough(), {
      isTTY: true,
      columns: 120,
      cursorTo: () => true,
      clearLine: () => true,
      moveCursor: () => true,
    }) as unknown as NodeJS.WriteStream;
    let text = '';
    (stream as unknown as PassThrough).on('data', (c: Buffer) => (text += c.toString()));
    const view = terminalProgressView(stream);
    view.event({ type: 'progress', progress: progress({ pulled: { annotations: 500, annotation_logs: 1200 } }) });
    view.event({
      type: 'progress',
      progress: progress({ phase: 'push', pulled: { annotations: 500, annotation_logs: 1200 }, pushed: 4, pendingAtStart: 10 }),
    });
    view.stop();
    expect(text).toMatch(/annotations\s+\|[█░]+\| 500 rows/);
    expect(text).toMatch(/annotation_logs\s+\|[█░]+\| 1200 rows/);
    expect(text).toMatch(/push\s+\|[█░]+\| 4 of 10 edits/);
  });
});
