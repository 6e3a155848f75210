import type { Store } from '../../store/store.js';
import type { RetentionStep } from '../../jobs/retention-step.js';
import { MINUTE } from '../../lib/time.js';

/** Per-address token creation times: a minute old, they hold back nothing (TOKEN_CREATION_INTERVAL_MS is shorter). */
export function tokenCreationRetention(store: Store): RetentionStep {
  return {
    name: 'expiredTokenCreations',
    run: async ({ now }) =>
      (await store.writeOne('DELETE FROM token_creations WHERE last_at <= $1 RETURNING 1 AS n', [now - MINUTE])).length,
  };
}
