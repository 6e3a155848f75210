/** At most `slots` tasks at once; the others wait in arrival order. */
export class Gate {
  private busy = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly slots: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.busy >= this.slots) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.busy += 1;
    try {
      return await task();
    } finally {
      const next = this.queue.shift();
      if (next !== undefined) next(); // the slot passes straight to the next task
      else this.busy -= 1;
    }
  }
}
