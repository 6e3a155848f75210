/**
 * Whether this instance should get traffic (GET /readyz): not before it has started (store migrated,
 * listeners up), and not once it is draining (SIGTERM received), while it still answers what reaches it.
 */
export class Readiness {
  private started = false;
  private draining = false;
  private cut = false;

  markStarted(): void {
    this.started = true;
  }

  startDraining(): void {
    this.draining = true;
  }

  /** The stop's grace is over: the connections still open are being cut. */
  markConnectionsCut(): void {
    this.cut = true;
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
