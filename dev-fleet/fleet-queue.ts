/** A binary min-heap of (time, device index): which device acts next, in O(log n). */
export class DueQueue {
  private readonly at: number[] = [];
  private readonly ids: number[] = [];

  get size(): number {
    return this.at.length;
  }

  push(at: number, id: number): void {
    this.at.push(at);
    this.ids.push(id);
    let i = this.at.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.at[parent] <= this.at[i]) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** The earliest time queued, or Infinity. */
  peek(): number {
    return this.at.length ? this.at[0] : Infinity;
  }

  pop(): number | undefined {
    if (this.at.length === 0) return undefined;
    const id = this.ids[0];
    const lastAt = this.at.pop()!;
    const lastId = this.ids.pop()!;
    if (this.at.length > 0) {
      this.at[0] = lastAt;
      this.ids[0] = lastId;
      this.sinkFrom(0);
    }
    return id;
  }

  private sinkFrom(start: number): void {
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < this.at.length && this.at[l] < this.at[min]) min = l;
      if (r < this.at.length && this.at[r] < this.at[min]) min = r;
      if (min === i) return;
      this.swap(i, min);
      i = min;
    }
  }

  private swap(a: number, b: number): void {
    [this.at[a], this.at[b]] = [this.at[b], this.at[a]];
    [this.ids[a], this.ids[b]] = [this.ids[b], this.ids[a]];
  }
}
