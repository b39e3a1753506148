// How `outpost sync` shows a run's progress: on a terminal, one bar line per
// resource with its count and rate (cli-progress), redrawn in place; elsewhere
// (a pipe, a log file, CI) the plain lines it always printed.
import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import type { SyncEvent } from './session';

export interface SyncProgressView {
  event(e: SyncEvent): void;
  /** Ends the display (the bars stay on screen as the run left them). */
  stop(): void;
}

/** The plain line for an event, or undefined for events that print nothing. */
function progressLine(e: SyncEvent): string | undefined {
  switch (e.type) {
    case 'phase':
      return e.phase === 'done' ? undefined : `${e.phase}...`;
    case 'pulled':
      return e.rows ? `  pulled ${e.rows} ${e.resource}` : undefined;
    case 'progress': {
      const p = e.progress;
      if (p.phase === 'push') return `  pushed ${p.pushed}/${p.pendingAtStart}`;
      const total = Object.values(p.pulled).reduce((a, b) => a + b, 0);
      return total ? `  pulled ${total} rows` : undefined;
    }
    case 'entry-failed':
      return `  refused #${e.seq} ${e.operation}: ${e.message}`;
    case 'warning':
      return `  warning: ${e.message}`;
  }
}

export function plainProgressView(write: (line: string) => void): SyncProgressView {
  return {
    event(e) {
      const line = progressLine(e);
      if (line) write(line);
    },
    stop() {},
  };
}

/** Bars on a terminal stream: a line per pulled resource (rows and rows/s), one for the push (sent of waiting). */
export function terminalProgressView(stream: NodeJS.WriteStream): SyncProgressView {
  const bars = new MultiBar(
    {
      stream,
      format: ' {label} |{bar}| {value}{of} {unit} {rate}',
      barsize: 24,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      forceRedraw: false,
      fps: 10,
    },
    Presets.shades_classic,
  );
  const started = Date.now();
  const rows = new Map<string, { bar: SingleBar; first: number }>();
  let push: SingleBar | undefined;
  const rate = (n: number, since: number) => {
    const s = (Date.now() - since) / 1000;
    return s > 0.2 ? `${Math.round(n / s)}/s` : '';
  };
  const pulled = (resource: string, n: number) => {
    let r = rows.get(resource);
    if (!r) {
      // Unknown totals: the bar is full once the resource is read, and its count is what matters.
      r = { bar: bars.create(1, 0, { label: resource.padEnd(24), of: '', unit: 'rows', rate: '' }), first: Date.now() };
      rows.set(resource, r);
    }
    r.bar.setTotal(Math.max(n, 1));
    r.bar.update(n, { rate: rate(n, r.first) });
  };
  return {
    event(e) {
      if (e.type === 'progress') {
        for (const [resource, n] of Object.entries(e.progress.pulled)) pulled(resource, n);
        if (e.progress.phase === 'push') {
          push ??= bars.create(Math.max(e.progress.pendingAtStart, 1), 0, { label: 'push'.padEnd(24), of: '', unit: 'edits', rate: '' });
          push.update(e.progress.pushed, { of: ` of ${e.progress.pendingAtStart}`, rate: rate(e.progress.pushed, started) });
        }
      } else if (e.type === 'pulled') pulled(e.resource, e.rows);
      else if (e.type === 'entry-failed' || e.type === 'warning') bars.log(`${progressLine(e)}\n`);
    },
    stop() {
      bars.stop();
    },
  };
}
