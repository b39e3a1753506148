// The built Electron main bundle (out/main/index.js) in a real Node process,
// with a stand-in `electron` module at the module boundary
// (fakeElectron/electron.mjs): what main asks of Electron is recorded; the
// engine host it starts with utilityProcess.fork is the real
// out/main/engineHost.js in its own process. The test plays the renderer.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoDataDir } from '../../src-main/db/dataDir';
import { ensureMainBuilt, BUILT_MAIN, repoRoot } from './mainBundle';

const REGISTER = join(repoRoot, 'tests/support/fakeElectron/register.mjs');
export const RENDERER_URL = 'app://outpost/index.html';

export interface Recorded {
  api: string;
  [key: string]: any;
}

export interface ElectronMain {
  readonly child: ChildProcess;
  readonly dataDir: string;
  /** The stand-in app.getPath() root: `<paths>/logs`, `<paths>/userData`. */
  readonly paths: string;
  /** Everything main asked of Electron, in order. */
  readonly records: Recorded[];
  /** What main printed. */
  readonly output: string[];
  /** ipcRenderer.invoke(channel, ...args) from a frame at `url` (rejects when main's handler throws). */
  invoke(url: string | null, channel: string, ...args: unknown[]): Promise<any>;
  /** The session's decisions: permissions, a request to another origin, the CSP header. */
  session(): Promise<Record<string, any>>;
  /** Clicks an application menu item by its labels. */
  clickMenu(...path: string[]): Promise<{ found: boolean; role?: string; accelerator?: string }>;
  /** The events sent to windows on `channel`. */
  sent(channel: string): any[];
  /** Lines of the module/dlopen log (`resolve <url>`, `dlopen <file>`). */
  moduleLog(): string[];
  /** Polls until `check` holds. */
  waitFor(what: string, check: () => boolean, ms?: number): Promise<void>;
  /** Closes the main window (its 'close' and 'closed' events). */
  closeWindow(): Promise<void>;
  /** Quits the app (app.quit()) and waits for the process to end. */
  quit(): Promise<number | null>;
  /** Resolves with the exit code once main has ended. */
  readonly exited: Promise<number | null>;
  cleanup(): void;
}

export async function startElectronMain(
  options: { env?: NodeJS.ProcessEnv; dataDir?: string; args?: string[] } = {},
): Promise<ElectronMain> {
  await ensureMainBuilt();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'outpost-desktop-'));
  const paths = mkdtempSync(join(tmpdir(), 'outpost-electron-paths-'));
  const log = join(paths, 'modules.log');
  const child = fork(BUILT_MAIN, options.args ?? [], {
    execArgv: ['--import', REGISTER],
    env: { ...process.env, OUTPOST_DATA_DIR: dataDir, FAKE_ELECTRON_LOG: log, FAKE_ELECTRON_PATHS: paths, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  const records: Recorded[] = [];
  const output: string[] = [];
  const replies = new Map<number, (value: any) => void>();
  let nextId = 1;
  child.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
  child.on('message', (m: any) => {
    if (m?.kind === 'record') records.push(m);
    else if (typeof m?.id === 'number') {
      replies.get(m.id)?.(m);
      replies.delete(m.id);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ask = (message: Record<string, unknown>) =>
    new Promise<any>((resolve) => {
      const id = nextId++;
      replies.set(id, resolve);
      child.send({ ...message, id });
    });
  const waitFor = async (what: string, check: () => boolean, ms = 30_000) => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; main printed:\n${output.join('')}`);
      if (child.exitCode !== null) throw new Error(`main exited (${child.exitCode}) while waiting for ${what}:\n${output.join('')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return {
    child,
    dataDir,
    paths,
    records,
    output,
    invoke: async (url, channel, ...args) => {
      const reply = await ask({ kind: 'invoke', url, channel, args });
      if (reply.error !== undefined) throw new Error(reply.error);
      return reply.result;
    },
    session: async () => (await ask({ kind: 'session' })).answers,
    clickMenu: async (...path) => await ask({ kind: 'menu', path }),
    sent: (channel) => records.filter((r) => r.api === 'webContents.send' && r.channel === channel).map((r) => r.payload),
    moduleLog: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
    waitFor,
    exited,
    closeWindow: async () => void (await ask({ kind: 'close-window' })),
    async quit() {
      if (child.exitCode === null) child.send({ kind: 'quit' });
      return exited;
    },
    cleanup() {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(demoDataDir(dataDir), { recursive: true, force: true });
      rmSync(paths, { recursive: true, force: true });
    },
  };
}
