/** Least-recently-used entries go first once their sizes add up past the budget (state that grows with traffic, bounded). */
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private total = 0;

  /** Bytes held now. */
  get bytes(): number {
    return this.total;
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, size: number, budget: number): void {
    if (size > budget) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.total -= previous.size;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, size });
    this.total += size;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= budget) break;
      this.entries.delete(oldest);
      this.total -= entry.size;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.size;
  }
}
