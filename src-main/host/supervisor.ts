// The parent's side of the engine host (the Electron main process; tests and
// the bench play it too): starts the host process, forwards calls and
// matches their results by id, answers the host's secret requests from the
// parent's store, and restarts a host that died. A call that was running
// when its host died fails with UNAVAILABLE — never silently, and never
// retried (a write may have committed before the crash).
//
// Nothing here imports the engine or the database: this module is what the
// main process holds instead of them.
import { readBridgeReply, type BridgeReply } from '../../src-shared/bridge';
import { ApiError, Code } from '../../src-shared/errors';
import { isFromHost, type CallResult, type FromHost, type HostEvent, type HostInit, type LogLevel, type ToHost } from './protocol';

/** A started host process, whatever runs it (utilityProcess, child_process.fork, a worker thread). */
export interface HostProcess {
  postMessage(message: ToHost): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Once, when the process has ended (killed, crashed or exited). */
  onExit(listener: (code: number | null) => void): void;
  /** Each line the host printed (a crash's stack trace, a native module's complaint). */
  onOutput(listener: (line: string) => void): void;
  kill(): void;
  readonly pid: number | undefined;
}

export type HostLauncher = () => HostProcess;

/**
 * starting: the first host is opening the database; ready: calls are answered;
 * restarting: the host died and a new one is on its way; failed: it cannot run
 * (the database cannot be opened, or it keeps dying); stopped: shut down.
 */
export type HostState = 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped';

/** The parent's secret store (safeStorage in the desktop app); the same shape as sync/secretStore.ts. */
export interface ParentSecretStore {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

export interface SupervisorOptions {
  readonly launch: HostLauncher;
  readonly init: HostInit;
  readonly secrets: ParentSecretStore;
  /** Events the host pushes (sync status and progress). */
  readonly onEvent?: (event: HostEvent) => void;
  /** The host's state changed; `detail` says why in words a user can read. */
  readonly onStateChange?: (state: HostState, detail: string) => void;
  /** The host's own log lines and what it printed. */
  readonly onLog?: (level: LogLevel, message: string) => void;
  /** Crash-loop guard: more than this many restarts within `restartWindowMs` and the host is left failed (default 5 in 60 s). */
  readonly maxRestarts?: number;
  readonly restartWindowMs?: number;
  /** Wait before restart number `attempt` (0-based; default 200 ms doubling, at most 5 s). */
  readonly restartDelayMs?: (attempt: number) => number;
  /** How long a shutdown may take before the host is killed (default 10 s). */
  readonly shutdownTimeoutMs?: number;
  /**
   * Each call's deadline (default 30 s): past it, the call fails DEADLINE_EXCEEDED. A long operation
   * (imports, batch actions: protocol.ts isLongOperation) reports progress, and each report restarts it.
   */
  readonly callTimeoutMs?: number;
  /** Liveness: the host is pinged this often while it is ready (default 1 s)... */
  readonly pingIntervalMs?: number;
  /** ...and one that leaves a ping unanswered this long is hung: killed and replaced (default 3.5 s). */
  readonly pingTimeoutMs?: number;
}

type Outgoing = Extract<ToHost, { id: number }>;
type OutgoingWithoutId = Outgoing extends infer M ? (M extends Outgoing ? Omit<M, 'id'> : never) : never;

const unavailable = (message: string): CallResult => ({ ok: false, error: new ApiError(Code.UNAVAILABLE, message).toBody() });

interface PendingCall {
  readonly message: Outgoing;
  readonly settle: (reply: BridgeReply) => void;
  /** The call's deadline (none for the supervisor's own pings). */
  deadline?: NodeJS.Timeout;
}

export class EngineHostSupervisor {
  private child: HostProcess | undefined;
  private current: HostState = 'stopped';
  private failure = '';
  private nextId = 1;
  /** Calls and pings sent to (or waiting for) the current host, by id. */
  private readonly pending = new Map<number, PendingCall>();
  /** Waiting for a host while one is being restarted: sent to the new one. */
  private queued: Outgoing[] = [];
  private restartTimes: number[] = [];
  private restartTimer: NodeJS.Timeout | undefined;
  private initFailure: string | undefined;
  private readyWaiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private stopping: { done: Promise<void>; resolve: () => void } | undefined;
  private liveness: NodeJS.Timeout | undefined;
  /** The host the liveness check found hung and killed (its exit is reported as that). */
  private hung: HostProcess | undefined;

  constructor(private readonly options: SupervisorOptions) {}

  private get callTimeoutMs(): number {
    return this.options.callTimeoutMs ?? 30_000;
  }

  get state(): HostState {
    return this.current;
  }

  /** The host process's id (undefined while none runs). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the host; resolves once its database is open, rejects when it cannot be opened. */
  start(): Promise<void> {
    if (this.current !== 'stopped') throw new Error('the engine host is already started');
    const ready = this.whenReady();
    this.launch('starting', 'opening the profile');
    return ready;
  }

  /** Resolves when the host is (again) ready; rejects if it fails or stops first. */
  whenReady(): Promise<void> {
    if (this.current === 'ready') return Promise.resolve();
    if (this.current === 'failed') return Promise.reject(new Error(this.failure));
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  /** Runs one operation in the host. Never rejects: failures are the contract's error body. */
  async call(operation: string, request: unknown): Promise<CallResult> {
    return readBridgeReply(await this.forward(operation, request));
  }

  /**
   * Runs one operation and resolves to its reply as the host sent it (JSON text
   * for a JSON response): what main forwards to the renderer without parsing it.
   */
  forward(operation: string, request: unknown): Promise<BridgeReply> {
    return this.send({ kind: 'call', operation, request });
  }

  /** Imports an ATML file at `path` (a path the main process's own open dialog returned). */
  async importFile(path: string): Promise<CallResult> {
    return readBridgeReply(await this.send({ kind: 'import-file', path }));
  }

  /** Round trip to the host's event loop (resolves ok:true on pong). */
  async ping(): Promise<CallResult> {
    return readBridgeReply(await this.send({ kind: 'ping' }));
  }

  /** Asks the host to stop sync and close the database; kills it if it takes too long. */
  stop(): Promise<void> {
    if (this.stopping) return this.stopping.done;
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    this.stopping = { done, resolve };
    this.stopLiveness();
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const child = this.child;
    if (!child) {
      this.failInFlight('the engine has stopped');
      this.setState('stopped', 'shut down');
      resolve();
      return done;
    }
    const killer = setTimeout(() => child.kill(), this.options.shutdownTimeoutMs ?? 10_000);
    killer.unref?.();
    void done.finally(() => clearTimeout(killer));
    child.postMessage({ kind: 'shutdown' });
    return done;
  }

  private send(message: OutgoingWithoutId): Promise<BridgeReply> {
    if (this.stopping) return Promise.resolve(unavailable('the engine has stopped'));
    if (this.current === 'failed') return Promise.resolve(unavailable(this.failure));
    if (this.current === 'stopped') return Promise.resolve(unavailable('the engine is not started'));
    const outgoing = { ...message, id: this.nextId++ } as Outgoing;
    return new Promise((settle) => {
      const entry: PendingCall = { message: outgoing, settle };
      this.pending.set(outgoing.id, entry);
      if (outgoing.kind !== 'ping') this.armDeadline(entry);
      if (this.child) this.child.postMessage(outgoing);
      else this.queued.push(outgoing);
    });
  }

  /** (Re)starts a call's deadline: at its start, and at each progress report of a long operation. */
  private armDeadline(entry: PendingCall): void {
    if (entry.deadline) clearTimeout(entry.deadline);
    const ms = this.callTimeoutMs;
    entry.deadline = setTimeout(() => {
      if (this.pending.get(entry.message.id) !== entry) return;
      this.pending.delete(entry.message.id);
      const what = entry.message.kind === 'call' ? entry.message.operation : 'the import';
      // The host still answers pings (else it would be replaced): the call may yet finish there.
      entry.settle({
        ok: false,
        error: new ApiError(
          Code.DEADLINE_EXCEEDED,
          `the engine did not finish ${what} within ${Math.round(ms / 1000)} s; it may still complete — check before repeating it`,
        ).toBody(),
      });
    }, ms);
    entry.deadline.unref?.();
  }

  /** Pings the ready host; one that does not answer within pingTimeoutMs is killed (exited() restarts it). */
  private startLiveness(child: HostProcess): void {
    this.stopLiveness();
    const interval = this.options.pingIntervalMs ?? 1_000;
    const timeout = this.options.pingTimeoutMs ?? 3_500;
    let waitingSince: number | undefined;
    this.liveness = setInterval(() => {
      if (child !== this.child || this.stopping) return this.stopLiveness();
      if (waitingSince !== undefined) {
        if (Date.now() - waitingSince < timeout) return;
        this.stopLiveness();
        this.hung = child;
        this.options.onLog?.('error', `engine host (pid ${child.pid ?? '?'}) did not answer for ${timeout} ms: killing it`);
        child.kill();
        return;
      }
      waitingSince = Date.now();
      void this.send({ kind: 'ping' }).then(() => (waitingSince = undefined));
    }, interval);
    this.liveness.unref?.();
  }

  private stopLiveness(): void {
    if (this.liveness) clearInterval(this.liveness);
    this.liveness = undefined;
  }

  private launch(state: 'starting' | 'restarting', detail: string): void {
    this.initFailure = undefined;
    const child = this.options.launch();
    this.child = child;
    this.setState(state, detail);
    child.onMessage((message) => this.receive(child, message));
    child.onExit((code) => this.exited(child, code));
    child.onOutput((line) => this.options.onLog?.('error', `engine host: ${line}`));
    // Progress of a long call comes well within its deadline.
    const progressIntervalMs = Math.max(10, Math.floor(this.callTimeoutMs / 4));
    child.postMessage({ kind: 'init', init: { progressIntervalMs, ...this.options.init } });
    for (const message of this.queued.splice(0)) child.postMessage(message);
  }

  private receive(child: HostProcess, message: unknown): void {
    if (child !== this.child) return;
    if (!isFromHost(message)) return this.options.onLog?.('warn', 'engine host: dropped a message that is not part of the protocol');
    this.handle(child, message);
  }

  private handle(child: HostProcess, message: FromHost): void {
    switch (message.kind) {
      case 'ready':
        this.setState('ready', 'the profile is open');
        this.startLiveness(child);
        for (const waiter of this.readyWaiters.splice(0)) waiter.resolve();
        return;
      case 'init-failed':
        this.initFailure = message.message;
        return;
      case 'result':
        return this.settle(message.id, message.result);
      case 'pong':
        return this.settle(message.id, { ok: true, data: null });
      case 'progress': {
        const entry = this.pending.get(message.id);
        if (entry?.deadline) this.armDeadline(entry);
        return;
      }
      case 'event':
        return this.options.onEvent?.(message.event);
      case 'log':
        return this.options.onLog?.(message.level, `engine host: ${message.message}`);
      case 'secret':
        void this.answerSecret(child, message);
        return;
      case 'closed':
        return;
    }
  }

  private async answerSecret(child: HostProcess, request: Extract<FromHost, { kind: 'secret' }>): Promise<void> {
    const { secrets } = this.options;
    let reply: ToHost;
    try {
      let value: string | undefined;
      if (request.action === 'get') value = await secrets.get(request.name);
      else if (request.action === 'set') await secrets.set(request.name, request.value ?? '');
      else await secrets.delete(request.name);
      reply = { kind: 'secret-result', id: request.id, ok: true, ...(value === undefined ? {} : { value }) };
    } catch (error) {
      reply = { kind: 'secret-result', id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    // A host that died meanwhile gets nothing; its successor asks again.
    if (child === this.child) child.postMessage(reply);
  }

  private settle(id: number, reply: BridgeReply): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    if (entry.deadline) clearTimeout(entry.deadline);
    entry.settle(reply);
  }

  private failInFlight(message: string): void {
    for (const [id, entry] of this.pending) {
      this.pending.delete(id);
      if (entry.deadline) clearTimeout(entry.deadline);
      entry.settle(unavailable(message));
    }
    this.queued = [];
  }

  private exited(child: HostProcess, code: number | null): void {
    if (child !== this.child) return;
    this.child = undefined;
    this.stopLiveness();
    const how = child === this.hung ? 'stopped answering' : code === null ? 'was killed' : `exited with code ${code}`;
    this.hung = undefined;
    if (this.stopping) {
      this.failInFlight('the engine has stopped');
      this.setState('stopped', 'shut down');
      this.rejectWaiters('the engine has stopped');
      this.stopping.resolve();
      return;
    }
    // Everything in flight died with it; whether a write committed first is unknown, so the caller is told.
    this.failInFlight(
      `the engine stopped unexpectedly (it ${how}) while this call was running; it is being restarted — check whether the change was made before repeating it`,
    );
    // The host says why in a sentence for the window (host/openFailure.ts).
    if (this.initFailure !== undefined) return this.fail(this.initFailure);
    this.options.onLog?.('error', `engine host ${how}; restarting it`);
    const now = Date.now();
    const windowMs = this.options.restartWindowMs ?? 60_000;
    this.restartTimes = this.restartTimes.filter((t) => now - t < windowMs);
    if (this.restartTimes.length >= (this.options.maxRestarts ?? 5)) {
      return this.fail(
        `the engine stopped ${this.restartTimes.length + 1} times within ${Math.round(windowMs / 1000)} s (last: it ${how}); see the log file`,
      );
    }
    const attempt = this.restartTimes.length;
    this.restartTimes.push(now);
    this.setState('restarting', `the engine ${how}; restarting it`);
    const delay = this.options.restartDelayMs?.(attempt) ?? Math.min(5_000, 200 * 2 ** attempt);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.stopping) this.launch('restarting', `the engine ${how}; starting a new one`);
    }, delay);
  }

  private fail(message: string): void {
    this.failure = message;
    this.options.onLog?.('error', message);
    this.setState('failed', message);
    this.rejectWaiters(message);
  }

  private rejectWaiters(message: string): void {
    for (const waiter of this.readyWaiters.splice(0)) waiter.reject(new Error(message));
  }

  private setState(state: HostState, detail: string): void {
    const changed = state !== this.current;
    this.current = state;
    if (changed || state === 'restarting') this.options.onStateChange?.(state, detail);
  }
}
