// From sources (tests, development), record --in-process's worker thread is TypeScript: NODE_OPTIONS
// preloads do not make a worker load TypeScript, so this plain module registers tsx and loads it.
import { register } from 'tsx/esm/api';

register();
await import('./record-tap-worker.ts');
