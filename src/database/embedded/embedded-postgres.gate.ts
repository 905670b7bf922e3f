/** Who may talk to PGlite (embedded-postgres.socket.ts): first come, first served, one at a time. */
export class Gate<T> {
  private owner?: T;
  private readonly waiting: { who: T; go: (granted: boolean) => void }[] = [];

  /** True once `who` owns the gate (at once if it already does); false if cancelled first. */
  enter(who: T): Promise<boolean> {
    if (this.owner === who) return Promise.resolve(true);
    if (this.owner === undefined) {
      this.owner = who;
      return Promise.resolve(true);
    }
    return new Promise((go) => this.waiting.push({ who, go }));
  }

  /** Hands the gate to the next in line; a no-op unless `who` owns it. */
  leave(who: T): void {
    if (this.owner !== who) return;
    const next = this.waiting.shift();
    this.owner = next?.who;
    next?.go(true);
  }

  /** Takes `who` out of the line, if it is waiting. */
  cancel(who: T): void {
    const at = this.waiting.findIndex((w) => w.who === who);
    if (at >= 0) this.waiting.splice(at, 1)[0].go(false);
  }
}
