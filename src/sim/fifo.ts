// A small FIFO of integers (items or worker ids) with O(1) amortised push and shift.
export class Fifo {
  private items: number[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(value: number): void {
    this.items.push(value);
  }

  shift(): number {
    const value = this.items[this.head++];
    // Compact once the consumed prefix dominates, keeping memory proportional to the contents.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return value;
  }
}
