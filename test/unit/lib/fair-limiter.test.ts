import { expect, it } from 'vitest';
import { FairLimiter, PoolFullError } from '../../../src/lib/fair-limiter.js';

/** A task that runs until released, recording when it started. */
function gate(started: string[], name: string) {
  let release: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (release = resolve));
  const task = async () => {
    started.push(name);
    await done;
  };
  return { task, release: () => release() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

it('runs at most perKey tasks of one key even when slots are free', async () => {
  const limiter = new FairLimiter({ slots: 8, perKey: 2 });
  const started: string[] = [];
  const tasks = ['a1', 'a2', 'a3'].map((name) => gate(started, name));
  const runs = tasks.map((t) => limiter.run('a', t.task));
  await tick();
  expect(started).toEqual(['a1', 'a2']);
  expect(limiter.activeOf('a')).toBe(2);
  expect(limiter.fullKeys()).toEqual(['a']);
  tasks[0]?.release();
  await tick();
  expect(started).toEqual(['a1', 'a2', 'a3']);
  for (const t of tasks) t.release();
  await Promise.all(runs);
  expect(limiter.active).toBe(0);
  expect(limiter.fullKeys()).toEqual([]);
});

it('tells the keys running tasks with room left (busy) apart from those running their share (full)', async () => {
  const limiter = new FairLimiter({ slots: 8, perKey: 2 });
  const started: string[] = [];
  const tasks = ['a1', 'a2', 'b1'].map((name) => gate(started, name));
  const runs = [limiter.run('a', tasks[0]!.task), limiter.run('a', tasks[1]!.task), limiter.run('b', tasks[2]!.task)];
  await tick();
  expect(limiter.fullKeys()).toEqual(['a']);
  expect(limiter.busyKeys()).toEqual(['b']);
  expect(limiter.roomFor('b')).toBe(1);
  for (const t of tasks) t.release();
  await Promise.all(runs);
  expect(limiter.busyKeys()).toEqual([]);
});

it("starts a key's first waiting task before a busy key's hundredth: waiting keys take turns", async () => {
  const limiter = new FairLimiter({ slots: 2, perKey: 2 });
  const started: string[] = [];
  const hostile = Array.from({ length: 100 }, (_, i) => gate(started, `h${i}`));
  const hostileRuns = hostile.map((t) => limiter.run('hostile', t.task));
  await tick();
  const victim = gate(started, 'victim');
  const victimRun = limiter.run('victim', victim.task);
  await tick();
  expect(started).toEqual(['h0', 'h1']);
  hostile[0]?.release();
  await tick();
  // The freed slot goes to the victim, though 98 hostile tasks were queued before it.
  expect(started).toEqual(['h0', 'h1', 'victim']);
  victim.release();
  await victimRun;
  for (const t of hostile) t.release();
  await Promise.all(hostileRuns);
  expect(started).toHaveLength(101);
});

it('gives a slot freed by a capped key to another key waiting, not back to the capped key beyond its cap', async () => {
  const limiter = new FairLimiter({ slots: 3, perKey: 1 });
  const started: string[] = [];
  const a = [gate(started, 'a1'), gate(started, 'a2')];
  const b = gate(started, 'b1');
  const c = gate(started, 'c1');
  const runs = [
    limiter.run('a', a[0]!.task),
    limiter.run('a', a[1]!.task),
    limiter.run('b', b.task),
    limiter.run('c', c.task),
  ];
  await tick();
  expect(started).toEqual(['a1', 'b1', 'c1']);
  expect(limiter.roomFor('a')).toBe(0);
  expect(limiter.roomFor('d')).toBe(0);
  b.release();
  await tick();
  // a2 waits for a1 (a's cap), so b's slot stays free rather than breaking a's cap.
  expect(started).toEqual(['a1', 'b1', 'c1']);
  expect(limiter.free).toBe(1);
  expect(limiter.roomFor('d')).toBe(1);
  a[0]!.release();
  await tick();
  expect(started).toEqual(['a1', 'b1', 'c1', 'a2']);
  a[1]!.release();
  c.release();
  await Promise.all(runs);
});

it('refuses at once a task beyond maxWaitingPerKey, and frees the slot of a task that throws', async () => {
  const limiter = new FairLimiter({ slots: 1, perKey: 1, maxWaitingPerKey: 1 });
  const started: string[] = [];
  const first = gate(started, 'one');
  const running = limiter.run('k', first.task);
  const waiting = limiter.run('k', async () => 'second');
  await expect(limiter.run('k', async () => 'third')).rejects.toBeInstanceOf(PoolFullError);
  first.release();
  await running;
  expect(await waiting).toBe('second');
  await expect(limiter.run('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  expect(limiter.active).toBe(0);
  expect(await limiter.run('k', async () => 'after')).toBe('after');
});

it('refuses settings that could never run a task', () => {
  expect(() => new FairLimiter({ slots: 0, perKey: 1 })).toThrow();
  expect(() => new FairLimiter({ slots: 2, perKey: 3 })).toThrow();
});

it("starts another key's first task at once in a reserved slot while other keys hold every shared slot", async () => {
  const limiter = new FairLimiter({ slots: 4, perKey: 2, reserved: 2 });
  const started: string[] = [];
  const hostile = ['a1', 'a2', 'b1', 'b2', 'a3', 'b3'].map((name) => gate(started, name));
  const hostileRuns = hostile.map((t) =>
    limiter.run(t === hostile[0] || t === hostile[1] || t === hostile[4] ? 'a' : 'b', t.task),
  );
  await tick();
  expect(started).toEqual(['a1', 'a2', 'b1', 'b2']);
  expect(limiter.free).toBe(0);
  // A key holding none takes a reserved slot; its second task waits for a shared one, as the hostile keys' do.
  const victims = ['v1', 'v2'].map((name) => gate(started, name));
  const victimRuns = victims.map((t) => limiter.run('v', t.task));
  const other = gate(started, 'w1');
  const otherRun = limiter.run('w', other.task);
  await tick();
  expect(started).toEqual(['a1', 'a2', 'b1', 'b2', 'v1', 'w1']);
  expect(limiter.roomFor('x')).toBe(0); // both reserved slots taken
  // A shared slot freed starts nothing while the reserve is in use: more than `slots` run (5 of 4).
  hostile[0]?.release();
  await tick();
  expect(started).toHaveLength(6);
  for (const t of [...hostile, ...victims, other]) t.release();
  await Promise.all([...hostileRuns, ...victimRuns, otherRun]);
  expect(limiter.active).toBe(0);
});

it('lets a key use the reserved slots only while it holds fewer than reservedPerKey', async () => {
  const limiter = new FairLimiter({ slots: 4, perKey: 4, reserved: 4, reservedPerKey: 2 });
  const started: string[] = [];
  const tasks = ['a1', 'a2', 'a3', 'a4', 'a5'].map((name) => gate(started, name));
  const runs = tasks.map((t) => limiter.run('a', t.task));
  await tick();
  // The four shared slots; a holds its share, and more than reservedPerKey: none of the reserve.
  expect(started).toEqual(['a1', 'a2', 'a3', 'a4']);
  const b = ['b1', 'b2', 'b3'].map((name) => gate(started, name));
  const bRuns = b.map((t) => limiter.run('b', t.task));
  await tick();
  // b holds none: two in the reserve (reservedPerKey), the third waits.
  expect(started).toEqual(['a1', 'a2', 'a3', 'a4', 'b1', 'b2']);
  expect(limiter.roomFor('c')).toBe(2);
  expect(limiter.roomFor('b')).toBe(0);
  for (const t of [...tasks, ...b]) t.release();
  await Promise.all([...runs, ...bRuns]);
  expect(limiter.active).toBe(0);
});

it('refuses a reserve it cannot honour', () => {
  expect(() => new FairLimiter({ slots: 4, perKey: 2, reserved: -1 })).toThrow('reserved');
  expect(() => new FairLimiter({ slots: 4, perKey: 2, reserved: 2, reservedPerKey: 3 })).toThrow('reservedPerKey');
});

it('counts a key as full once the shared slots are taken and it holds its reserve share; a key holding none has room in the reserve', async () => {
  const limiter = new FairLimiter({ slots: 2, perKey: 2, reserved: 2 });
  const started: string[] = [];
  const tasks = ['a1', 'a2', 'b1'].map((name) => gate(started, name));
  const runs = [limiter.run('a', tasks[0]!.task), limiter.run('a', tasks[1]!.task), limiter.run('b', tasks[2]!.task)];
  await tick();
  expect(started).toEqual(['a1', 'a2', 'b1']);
  expect([limiter.free, limiter.freeWithReserve, limiter.capacity]).toEqual([0, 1, 4]);
  // b holds one task in the reserve: with the shared slots taken it may start no second one.
  expect(limiter.fullKeys()).toEqual(['a', 'b']);
  expect(limiter.busyKeys()).toEqual([]);
  expect(limiter.roomFor('c')).toBe(1);
  for (const t of tasks) t.release();
  await Promise.all(runs);
  expect(limiter.freeWithReserve).toBe(4);
});
