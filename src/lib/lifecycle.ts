/** A part of the running service: started once, stopped once (after everything started after it). */
export interface Component {
  /** Named in the log lines about its stop. */
  readonly name: string;
  start(): Promise<void> | void;
  stop(): Promise<void>;
  /** How long its stop may take before the next one begins anyway; default STOP_TIMEOUT_MS. */
  readonly stopTimeoutMs?: number;
}

/** What a stop that failed or overran is reported to (a logger's error). */
export type StopProblem = (problem: {
  readonly component: string;
  readonly error?: unknown;
  readonly timedOut?: boolean;
}) => void;

export interface Lifecycle {
  /** Starts the components in order; if one fails, those already started are stopped (reverse order) and the error thrown. */
  start(): Promise<void>;
  /** Stops what was started, in reverse order of start (call it once start has settled); later calls wait for the first. */
  stop(): Promise<void>;
}

/** Longest a component's stop is awaited unless it says otherwise. */
export const STOP_TIMEOUT_MS = 15_000;

/**
 * Starts components in order and stops them in reverse order. Each stop is bounded by its timeout and
 * its failure is reported, never thrown: a stuck or failing component must not keep later ones (the
 * log flush, the store) from stopping.
 */
export function lifecycle(components: readonly Component[], report: StopProblem): Lifecycle {
  const started: Component[] = [];
  let stopping: Promise<void> | undefined;

  const stopAll = async (): Promise<void> => {
    for (const component of started.splice(0).reverse()) await stopBounded(component, report);
  };

  return {
    async start() {
      for (const component of components) {
        try {
          await component.start();
        } catch (error) {
          await stopAll();
          throw error;
        }
        started.push(component);
      }
    },
    stop() {
      stopping ??= stopAll();
      return stopping;
    },
  };
}

async function stopBounded(component: Component, report: StopProblem): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const overran = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), component.stopTimeoutMs ?? STOP_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([Promise.resolve().then(() => component.stop()), overran]);
    if (outcome === 'timeout') report({ component: component.name, timedOut: true });
  } catch (error) {
    report({ component: component.name, error });
  } finally {
    clearTimeout(timer);
  }
}

/** Components started one after the other and stopped all at once (e.g. workers finishing while requests drain). */
export function together(name: string, parts: readonly Component[], report: StopProblem): Component {
  const started: Component[] = [];
  const longest = Math.max(0, ...parts.map((part) => part.stopTimeoutMs ?? STOP_TIMEOUT_MS));
  // Each part is still bounded and reported by itself; they only no longer wait for one another.
  const stop = async (): Promise<void> => {
    await Promise.all(started.splice(0).map((part) => stopBounded(part, report)));
  };
  return {
    name,
    async start() {
      for (const part of parts) {
        try {
          await part.start();
        } catch (error) {
          await stop();
          throw error;
        }
        started.push(part);
      }
    },
    stop,
    stopTimeoutMs: longest + 1000,
  };
}
