// The initial sync's floor (#33 goal 2): the remote's answers recorded once to
// local files, then a sync into an empty replica that reads each answer from
// its file instead of the network. What is left is the cost of having the
// data: reading the pages, parsing them, writing them by the same bulk path,
// building the indexes. Network and the remote's listing are gone.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

interface Recorded {
  readonly file: string;
  readonly status: number;
  readonly headers: Record<string, string>;
}

/** The request as a key: method, URL and body (the sync asks the same questions of the same data in the same order). */
async function keyOf(input: RequestInfo | URL, init?: RequestInit): Promise<string> {
  const request = new Request(input, init);
  return `${request.method} ${request.url}\n${request.body ? await request.text() : ''}`;
}

export interface RecordedRemote {
  /** A fetch that answers from the network and writes each answer to a file. */
  readonly recording: typeof fetch;
  /** A fetch that answers from those files (the same question, the same answer, in order). */
  replaying(): typeof fetch;
  readonly answers: () => number;
  /** Reads every recorded answer and parses its JSON, as the sync does: the milliseconds it took, and the CPU's. */
  readAndParse(): { ms: number; cpuMs: number };
}

export function recordedRemote(dir: string): RecordedRemote {
  mkdirSync(dir, { recursive: true });
  const answers = new Map<string, Recorded[]>();
  let count = 0;
  return {
    answers: () => count,
    readAndParse() {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      for (const list of answers.values()) for (const r of list) JSON.parse(readFileSync(r.file, 'utf8'));
      const cpu = process.cpuUsage(cpu0);
      return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
    },
    recording: async (input, init) => {
      const key = await keyOf(input, init);
      const res = await fetch(input, init);
      const body = Buffer.from(await res.arrayBuffer());
      const file = join(dir, `${count++}.body`);
      writeFileSync(file, body);
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => (headers[name] = value));
      answers.set(key, [...(answers.get(key) ?? []), { file, status: res.status, headers }]);
      return new Response(body, { status: res.status, headers });
    },
    replaying() {
      const next = new Map<string, number>();
      return async (input, init) => {
        const key = await keyOf(input, init);
        const list = answers.get(key);
        const i = next.get(key) ?? 0;
        next.set(key, i + 1);
        const recorded = list?.[Math.min(i, list.length - 1)];
        if (!recorded) throw new Error(`not recorded: ${key.split('\n')[0]}`);
        return new Response(readFileSync(recorded.file), { status: recorded.status, headers: recorded.headers });
      };
    },
  };
}
