/**
 * Hooks for every spec (loaded through .mocharc.json's `require`).
 *
 * The client remembers the era of each HTTP endpoint for the life of the process
 * (`sharedEraCache`): specs start servers on port 0, and the OS hands a closed server's port to a
 * later one, maybe of another era. Each test starts with nothing remembered.
 */
import { sharedEraCache } from '../../lib/client-modern/era-cache.js';

export const mochaHooks = {
  beforeEach(): void {
    sharedEraCache.clear();
  },
};
