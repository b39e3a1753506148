// What the benchmarks share about processes: a real `outpost serve` in a child
// process (the remote of a sync, the server of a listing), and the CPU time a
// process has used (Linux /proc), so a benchmark can say which side bound it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const OUTPOST = fileURLToPath(new URL('../../bin/outpost.mjs', import.meta.url));

/** Starts `outpost serve` on a free loopback port. OUTPOST_BENCH_SERVE_NODE_ARGS: e.g. "--cpu-prof" to profile it. */
export async function serveOutpost(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const nodeArgs = (process.env.OUTPOST_BENCH_SERVE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, OUTPOST, 'serve', '--data', dataDir, '--port', '0', '--no-sync'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /API: (http:\/\/[^\s]+)\/api\/v1/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`outpost serve exited ${code}`)));
  });
  return { url, child };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
export function processCpuSeconds(pid: number | undefined): number {
  try {
    // Fields 14 and 15 (utime, stime) in clock ticks; the command name (field 2) may hold spaces, so count from its ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}
