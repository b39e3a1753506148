import { describe, expect, test, vi } from 'vitest';
import type { BridgeEvent } from '../transport/bridge';
import { EngineStatus } from './engineStatus.svelte';

const status = (state: string, detail = '') => ({ type: 'engine-status', state, detail });

test('says nothing while the engine runs; says it is down while it restarts, then that it was restarted, until dismissed', () => {
  const engine = new EngineStatus();
  let push: (event: BridgeEvent) => void = () => {};
  const stop = engine.start((listener) => ((push = listener), () => (push = () => {})));
  push(status('starting', 'opening the profile'));
  push(status('ready', 'the profile is open'));
  expect(engine.notice).toBeUndefined();

  push(status('restarting', 'the engine was killed; restarting it'));
  expect(engine.notice).toEqual({
    tone: 'warning',
    title: 'The local engine stopped and is restarting',
    detail: 'the engine was killed; restarting it',
    dismissible: false,
  });
  push(status('ready', 'the profile is open'));
  expect(engine.notice).toMatchObject({ tone: 'info', title: 'The local engine was restarted', dismissible: true });
  engine.dismiss();
  expect(engine.notice).toBeUndefined();
  stop();
  push(status('failed', 'x'));
  expect(engine.state).toBe('ready');
});

test('the desktop light: down while the host restarts or cannot run; back by itself, and the views read again once', () => {
  const engine = new EngineStatus();
  let push: (event: BridgeEvent) => void = () => {};
  const readAgain = vi.fn();
  engine.start((listener) => ((push = listener), () => {}), readAgain);
  push(status('starting', 'opening the profile'));
  expect(engine.down).toBe(false); // starting is not a failure: calls wait for it
  push(status('ready', 'the profile is open'));
  expect([engine.answering, engine.down]).toEqual([true, false]);
  expect(readAgain).not.toHaveBeenCalled();

  push(status('restarting', 'the engine stopped answering; restarting it'));
  push(status('restarting', 'the engine stopped answering; starting a new one'));
  expect([engine.answering, engine.down]).toEqual([false, true]);
  push(status('ready', 'the profile is open'));
  expect([engine.answering, engine.down]).toEqual([true, false]);
  expect(readAgain).toHaveBeenCalledTimes(1);

  push(status('failed', 'the engine stopped 6 times within 60 s'));
  expect([engine.answering, engine.down]).toEqual([false, true]);
});

test('a host that cannot run is an error naming why; other events and unknown states are ignored', () => {
  const engine = new EngineStatus();
  engine.event({ type: 'sync-status', state: 'failed' });
  engine.event(status('exploded'));
  expect(engine.notice).toBeUndefined();
  engine.event(status('failed', 'the profile could not be opened: database disk image is malformed'));
  expect(engine.notice).toMatchObject({ tone: 'error', title: 'The local database cannot be used' });
  expect(engine.notice?.detail).toMatch(/^the profile could not be opened: database disk image is malformed\. Quit and reopen Outpost/);
});

describe('EngineStatus.watchServer (the browser: outpost serve is the engine)', () => {
  test('unreachable while the ping fails, one notice; ready again by itself when it answers, and says so once', async () => {
    const status = new EngineStatus();
    let up = false;
    let backs = 0;
    const stop = status.watchServer(
      () => (up ? Promise.resolve({}) : Promise.reject(new Error('connect ECONNREFUSED'))),
      () => backs++,
      5,
    );
    await vi.waitFor(() => expect(status.state).toBe('unreachable'));
    expect(status.answering).toBe(false);
    expect(status.notice).toMatchObject({ tone: 'error', title: 'outpost serve does not answer' });
    expect(JSON.stringify(status.notice)).not.toContain('ECONNREFUSED');
    up = true;
    await vi.waitFor(() => expect(status.state).toBe('ready'));
    expect(status.answering).toBe(true);
    expect(status.notice).toBeUndefined();
    await new Promise((r) => setTimeout(r, 30));
    expect(backs).toBe(1);
    stop();
  });
});
