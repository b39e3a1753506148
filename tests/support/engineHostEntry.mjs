// The engine host's TypeScript entry, runnable where Node flags cannot load
// tsx (a worker thread): registers tsx's loader, then starts the host.
import { register } from 'tsx/esm/api';

register();
await import('../../src-main/host/main.ts');
