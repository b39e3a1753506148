// `npm run bench`: every benchmark in this folder, one after the other.
// Benchmarks print ratios and rates; they never fail the test suite.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export async function main(argv: string[] = []): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const only = argv.filter((a) => !a.startsWith('-'));
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.endsWith('.test.ts'))
    .sort();
  for (const file of files) {
    const name = file.replace(/\.ts$/, '');
    if (only.length && !only.includes(name)) continue;
    console.log(`\n=== bench/${file} ===`);
    const mod = (await import(pathToFileURL(join(here, file)).href)) as { main?: (argv: string[]) => Promise<void> };
    if (mod.main) await mod.main(argv.filter((a) => a.startsWith('-')));
  }
}
