import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openEngine } from '/work/main/src-main/engine';
import { seedDemoData } from '/work/main/src-main/seed/seedDemoData';
import { createApiKey } from '/work/main/src-main/auth/apiKeys';

export async function main() {
  const N = Number(process.env.N ?? 100000);
  const rdir = process.env.RDIR ?? mkdtempSync(join(tmpdir(), 'prof-r-'));
  const e = openEngine(rdir);
  if (!e.db.get('SELECT 1 FROM annotations LIMIT 1')) seedDemoData(e.db, { annotations: N, ids: 'random' });
  const token = createApiKey(e.db, 'engineer@outpost.local', 'Field Team').token;
  e.close();
  console.log('dir', rdir);
  const child = spawn(process.execPath, ['/work/main/bin/outpost.mjs', 'serve', '--data', rdir, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((r) => { let o = ''; child.stdout!.on('data', (d) => { o += d; const m = /API: (http:\/\/[^\s]+)\/api\/v1/.exec(o); if (m) r(m[1]); }); });
  for (const parse of [false, true]) {
    let t = performance.now(); let tok = ''; let n = 0; let bytes = 0;
    do {
      const res = await fetch(`${url}/api/v1/annotations?order_by=modified_date&page_size=1000${tok ? `&page_token=${tok}` : ''}`, { headers: { Authorization: `Bearer ${token}` } });
      const buf = await res.arrayBuffer(); bytes += buf.byteLength;
      const text = Buffer.from(buf).toString();
      const m = /"nextPageToken":"([^"]*)"/.exec(text); tok = m ? m[1] : '';
      if (parse) n += JSON.parse(text).annotations.length; else n += 1000;
    } while (tok);
    console.log(parse ? 'with parse' : 'raw', Math.round(N / ((performance.now() - t) / 1000)), '/s', Math.round(bytes / 1e6), 'MB');
  }
  child.kill();
}
