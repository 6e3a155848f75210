import { describe, expect, it } from 'vitest';
import { lifecycle, together } from '../../../src/lib/lifecycle.js';
import type { Component, StopProblem } from '../../../src/lib/lifecycle.js';

/** A component that writes `start name` / `stop name` to `events`; `stop` may be replaced. */
function recorded(events: string[], name: string, stop?: () => Promise<void>, stopTimeoutMs?: number): Component {
  return {
    name,
    start: () => void events.push(`start ${name}`),
    stop: stop ?? (() => Promise.resolve(void events.push(`stop ${name}`))),
    stopTimeoutMs,
  };
}

function problems(): { report: StopProblem; seen: Array<{ component: string; timedOut: boolean; message?: string }> } {
  const seen: Array<{ component: string; timedOut: boolean; message?: string }> = [];
  return {
    seen,
    report: ({ component, error, timedOut }) =>
      seen.push({
        component,
        timedOut: timedOut === true,
        message: error instanceof Error ? error.message : undefined,
      }),
  };
}

describe('lifecycle', () => {
  it('starts components in order and stops them in reverse order', async () => {
    const events: string[] = [];
    const { report, seen } = problems();
    const running = lifecycle(
      ['store', 'log', 'http'].map((name) => recorded(events, name)),
      report,
    );
    await running.start();
    await running.stop();
    expect(events).toEqual(['start store', 'start log', 'start http', 'stop http', 'stop log', 'stop store']);
    expect(seen).toEqual([]);
  });

  it('reports a failing stop and still stops every component after it', async () => {
    const events: string[] = [];
    const { report, seen } = problems();
    const failing = recorded(events, 'smtp', () => Promise.reject(new Error('socket gone')));
    const running = lifecycle([recorded(events, 'store'), failing, recorded(events, 'http')], report);
    await running.start();
    await expect(running.stop()).resolves.toBeUndefined();
    expect(events).toEqual(['start store', 'start smtp', 'start http', 'stop http', 'stop store']);
    expect(seen).toEqual([{ component: 'smtp', timedOut: false, message: 'socket gone' }]);
  });

  it('moves on from a stop that outlasts its bound and reports it', async () => {
    const events: string[] = [];
    const { report, seen } = problems();
    const stuck = recorded(events, 'worker', () => new Promise<void>(() => undefined), 50);
    const running = lifecycle([recorded(events, 'store'), stuck], report);
    await running.start();
    const began = Date.now();
    await running.stop();
    expect(Date.now() - began).toBeLessThan(2000);
    expect(events).toEqual(['start store', 'start worker', 'stop store']);
    expect(seen).toEqual([{ component: 'worker', timedOut: true, message: undefined }]);
  });

  it('stops what had started, in reverse order, when a start fails, then throws its error', async () => {
    const events: string[] = [];
    const { report } = problems();
    const broken: Component = {
      name: 'smtp',
      start: () => Promise.reject(new Error('port taken')),
      stop: () => Promise.resolve(void events.push('stop smtp')),
    };
    const running = lifecycle(
      [recorded(events, 'store'), recorded(events, 'log'), broken, recorded(events, 'http')],
      report,
    );
    await expect(running.start()).rejects.toThrow('port taken');
    expect(events).toEqual(['start store', 'start log', 'stop log', 'stop store']);
  });

  it('runs each stop once however often stop is called', async () => {
    const events: string[] = [];
    const { report } = problems();
    const running = lifecycle([recorded(events, 'store')], report);
    await running.start();
    await Promise.all([running.stop(), running.stop()]);
    await running.stop();
    expect(events).toEqual(['start store', 'stop store']);
  });
});

describe('components stopped together', () => {
  it('stops its parts at the same time, each bounded, before the components started before them', async () => {
    const events: string[] = [];
    const { report, seen } = problems();
    let releaseDrain!: () => void;
    const drain = recorded(events, 'http', () =>
      new Promise<void>((resolve) => (releaseDrain = resolve)).then(() => void events.push('stop http')),
    );
    const stuck = recorded(events, 'scheduler', () => new Promise<void>(() => undefined), 50);
    const group = together('workers and http', [recorded(events, 'sweepers'), stuck, drain], report);
    const running = lifecycle([recorded(events, 'store'), group], report);
    await running.start();
    const stopped = running.stop();
    // The sweepers stop while the drain is still going: they do not wait for it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events.slice(4)).toEqual(['stop sweepers']);
    releaseDrain();
    await stopped;
    expect(events).toEqual([
      'start store',
      'start sweepers',
      'start scheduler',
      'start http',
      'stop sweepers',
      'stop http',
      'stop store',
    ]);
    expect(seen).toEqual([{ component: 'scheduler', timedOut: true, message: undefined }]);
  });

  it('stops the parts it had started when a later part fails to start', async () => {
    const events: string[] = [];
    const { report } = problems();
    const broken: Component = {
      name: 'http',
      start: () => Promise.reject(new Error('address in use')),
      stop: () => Promise.resolve(void events.push('stop http')),
    };
    const running = lifecycle(
      [recorded(events, 'store'), together('workers and http', [recorded(events, 'sweepers'), broken], report)],
      report,
    );
    await expect(running.start()).rejects.toThrow('address in use');
    expect(events).toEqual(['start store', 'start sweepers', 'stop sweepers', 'stop store']);
  });
});
