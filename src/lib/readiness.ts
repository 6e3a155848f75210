/**
 * Whether this instance should get traffic (GET /readyz): not before it has started (store migrated,
 * listeners up), and not once it is draining (SIGTERM received), while it still answers what reaches it.
 */
export class Readiness {
  private started = false;
  private draining = false;
  private cut = false;
  private readonly whenCut: Array<() => void> = [];

  markStarted(): void {
    this.started = true;
  }

  startDraining(): void {
    this.draining = true;
  }

  /** The stop's grace is over: the connections still open are being cut (after `onConnectionsCut`'s work is told). */
  markConnectionsCut(): void {
    this.cut = true;
    for (const listener of this.whenCut.splice(0)) listener();
  }

  /** Work a call may still be waiting for that must end with the grace: its calls fail (5xx, refunded) instead of hanging. */
  onConnectionsCut(listener: () => void): void {
    if (this.cut) listener();
    else this.whenCut.push(listener);
  }

  /** Why traffic should go elsewhere, or undefined when it is welcome. */
  get notReady(): 'starting' | 'draining' | undefined {
    if (this.draining) return 'draining';
    return this.started ? undefined : 'starting';
  }

  get isDraining(): boolean {
    return this.draining;
  }

  get connectionsCut(): boolean {
    return this.cut;
  }
}
