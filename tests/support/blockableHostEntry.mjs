// The built engine host (out/main/engineHost.js) with one thing added for
// tests: a message that blocks its event loop in a synchronous loop, for `ms`
// or for ever, as a stuck engine would. Everything else is the real host.
// (Listening only once the host listens: a message that came before would be
// emitted to this listener alone, and the host would miss its init.)
await import(new URL('../../out/main/engineHost.js', import.meta.url).href);
process.on('message', (message) => {
  if (message?.kind !== 'test-block-event-loop') return;
  const end = typeof message.ms === 'number' ? Date.now() + message.ms : Infinity;
  while (Date.now() < end) {
    // busy: no timer, no message, no ping is answered meanwhile
  }
});
