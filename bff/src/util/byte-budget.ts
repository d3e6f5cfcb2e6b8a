/**
 * Work that holds memory in proportion to a size (a file parsed whole) run so that the sizes
 * being worked on at once stay within a budget: small pieces side by side, a large one waiting
 * for room. First come, first served: a piece that does not fit holds back those after it, so
 * a large one is never starved by a stream of small ones. A piece larger than the budget
 * counts as the whole budget (it runs alone).
 */
export class ByteBudget {
  private used = 0;
  private readonly waiting: { bytes: number; go: () => void }[] = [];

  constructor(readonly budget: number) {}

  /** Bytes taken by work running now. */
  get inUse(): number {
    return this.used;
  }

  async run<T>(bytes: number, work: () => Promise<T>): Promise<T> {
    const need = Math.min(Math.max(bytes, 1), this.budget);
    // A waiter's room is taken for it by whoever wakes it, so no later arrival takes it first.
    if (this.waiting.length || this.used + need > this.budget) await new Promise<void>((go) => this.waiting.push({ bytes: need, go }));
    else this.used += need;
    try {
      return await work();
    } finally {
      this.used -= need;
      while (this.waiting.length && this.used + this.waiting[0].bytes <= this.budget) {
        const next = this.waiting.shift()!;
        this.used += next.bytes;
        next.go();
      }
    }
  }
}
