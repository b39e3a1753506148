// Preloaded into the stand-in utilityProcess (a forked Node process): gives it
// Electron's `process.parentPort` over the fork's IPC channel, so the host
// takes the very branch it takes in a real utilityProcess. Like Electron's
// port, messages wait until the first 'message' listener starts it. Electron
// ends its utility processes with the app; so does this.
import { EventEmitter } from 'node:events';

const port = new EventEmitter();
const queued = [];
let started = false;
process.on('message', (data) => {
  if (started) port.emit('message', { data, ports: [] });
  else queued.push(data);
});
port.on('newListener', (event) => {
  if (event !== 'message' || started) return;
  started = true;
  queueMicrotask(() => {
    for (const data of queued.splice(0)) port.emit('message', { data, ports: [] });
  });
});
port.postMessage = (message) => {
  if (process.connected) process.send(message);
};
process.parentPort = port;
process.on('disconnect', () => process.exit(0));
