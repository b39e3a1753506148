// The remote's clock from Date headers: what every answer agrees on, so one
// slow answer does not move the estimate (a create's send window rests on it).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Remote } from '../../src-main/sync/remote';
import { ServerClock } from '../../src-main/sync/serverClock';

/** The Date header a server whose clock runs `offset` ms ahead would send at local time `t`. */
const dateAt = (t: number, offset: number) => Math.floor((t + offset) / 1000) * 1000;

describe('ServerClock', () => {
  it('narrows to what every answer agrees on, and a slow answer does not move it', () => {
    let now = 1_700_000_000_000;
    const clock = new ServerClock(() => now);
    const offset = 90_437;
    expect(clock.known).toBe(false);
    expect(clock.offsetMs()).toBe(0);
    // Quick answers at different points of the second pin the offset down.
    for (let i = 0; i < 20; i++) {
      now += 137;
      clock.observe(dateAt(now, offset), now - 2, now);
    }
    expect(Math.abs(clock.offsetMs() - offset)).toBeLessThan(80);
    expect(clock.uncertaintyMs()).toBeLessThan(80);
    // An answer that took 4 s, stamped early in it: the latest-sample estimate would be ~2 s off.
    const sent = now;
    now += 4_000;
    clock.observe(dateAt(sent + 10, offset), sent, now);
    expect(Math.abs(clock.offsetMs() - offset)).toBeLessThan(80);
  });

  it('starts over when an answer agrees with nothing before it (a clock stepped)', () => {
    let now = 1_700_000_000_000;
    const clock = new ServerClock(() => now);
    for (let i = 0; i < 5; i++) {
      now += 250;
      clock.observe(dateAt(now, 0), now - 1, now);
    }
    expect(Math.abs(clock.offsetMs())).toBeLessThan(600);
    now += 100;
    clock.observe(dateAt(now, -3_600_000), now - 1, now);
    expect(Math.abs(clock.offsetMs() + 3_600_000)).toBeLessThan(1_000);
  });

  it('widens old bounds by drift, so a slewed clock is followed, not refused', () => {
    let now = 1_700_000_000_000;
    const clock = new ServerClock(() => now);
    clock.observe(dateAt(now, 0), now - 1, now);
    const tight = clock.uncertaintyMs();
    now += 3_600_000; // an hour later: 1 ms/s of drift allowed either way
    expect(clock.uncertaintyMs()).toBeGreaterThan(tight + 3_000);
    // The server's clock slewed 1.5 s ahead over that hour: the new answer is taken, no restart needed.
    clock.observe(dateAt(now, 1_500), now - 1, now);
    expect(Math.abs(clock.offsetMs() - 1_500)).toBeLessThan(700);
  });
});

describe('Remote.serverNow over a real server', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  it('keeps the estimate of quick answers when a slow one arrives', async () => {
    const offset = 90_000 + 437;
    let slowMs = 0;
    server = createServer((req, res) => {
      // Stamped when the request arrives, answered after `slowMs`: the worst case of a loaded server.
      const date = new Date(dateAt(Date.now(), offset)).toUTCString();
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', date });
        res.end('{"response":"pong"}');
      }, slowMs);
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const remote = new Remote({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k' });
    try {
      for (let i = 0; i < 20; i++) {
        await remote.call('Ping', {});
        await new Promise((r) => setTimeout(r, 70));
      }
      const error = () => remote.serverNow() / 1000 - (Date.now() + offset);
      expect(Math.abs(error())).toBeLessThan(300);
      slowMs = 3_000;
      await remote.call('Ping', {});
      expect(Math.abs(error())).toBeLessThan(300);
      expect(remote.clockOffset() / 1000).toBeCloseTo(offset, -3);
    } finally {
      remote.close();
    }
  });
});
