/**
 * An async readers/writer gate: any number of shared holders at once, or one exclusive holder alone. Waiters are
 * admitted in arrival order (a shared request behind a waiting exclusive one waits too), so a stream of shared
 * requests cannot keep an exclusive one out for ever. The twin's DynamoDB front end keeps one per item that a request
 * names ({@link ItemLocks}, docs/local-twin.md#transactions).
 */
export type Release = () => void;

type Waiter = { exclusive: boolean; admit: () => void };

export class ReadersWriterGate {
  #shared = 0;
  #exclusive = false;
  readonly #waiting: Waiter[] = [];

  /** Resolves once no exclusive holder is in (or ahead); call the release when done. */
  shared(): Promise<Release> {
    return this.#enter(false);
  }

  /** Resolves once nothing else holds the gate; call the release when done. */
  exclusive(): Promise<Release> {
    return this.#enter(true);
  }

  /** Runs `work` holding the gate (exclusively or shared), releasing it however `work` ends. */
  async run<T>(exclusive: boolean, work: () => Promise<T>): Promise<T> {
    const release = await this.#enter(exclusive);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Holders and waiters, for tests. */
  get state(): { shared: number; exclusive: boolean; waiting: number } {
    return { shared: this.#shared, exclusive: this.#exclusive, waiting: this.#waiting.length };
  }

  #admissible(exclusive: boolean): boolean {
    return exclusive ? !this.#exclusive && this.#shared === 0 : !this.#exclusive;
  }

  #enter(exclusive: boolean): Promise<Release> {
    return new Promise<Release>((resolve) => {
      const admit = () => {
        if (exclusive) this.#exclusive = true;
        else this.#shared += 1;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          if (exclusive) this.#exclusive = false;
          else this.#shared -= 1;
          this.#drain();
        });
      };
      if (this.#waiting.length === 0 && this.#admissible(exclusive)) admit();
      else this.#waiting.push({ exclusive, admit });
    });
  }

  #drain(): void {
    while (this.#waiting.length > 0 && this.#admissible(this.#waiting[0]!.exclusive)) this.#waiting.shift()!.admit();
  }
}

/** One item a request locks: shared (a read) or exclusive (a write). */
export type ItemLock = { item: string; exclusive: boolean };

/**
 * A readers/writer gate per item, made when an item is first locked and dropped when nobody holds or awaits it. A
 * request that names several items locks them in one global order (sorted names), so two requests can never each hold
 * an item the other waits for.
 */
export class ItemLocks {
  readonly #gates = new Map<string, ReadersWriterGate>();

  /** Resolves once every named item is held as asked (an item named twice is held once, exclusive if either asks). */
  async hold(locks: readonly ItemLock[]): Promise<Release> {
    const wanted = new Map<string, boolean>();
    for (const { item, exclusive } of locks) wanted.set(item, exclusive || (wanted.get(item) ?? false));
    const releases: Release[] = [];
    for (const item of [...wanted.keys()].sort()) {
      let gate = this.#gates.get(item);
      if (!gate) this.#gates.set(item, (gate = new ReadersWriterGate()));
      const release = wanted.get(item) ? await gate.exclusive() : await gate.shared();
      releases.push(() => {
        release();
        const { shared, exclusive, waiting } = gate.state;
        if (shared === 0 && !exclusive && waiting === 0 && this.#gates.get(item) === gate) this.#gates.delete(item);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const release of releases.reverse()) release();
    };
  }

  /** Items with a gate (held or awaited), for tests. */
  get size(): number {
    return this.#gates.size;
  }
}
