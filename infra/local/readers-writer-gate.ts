/**
 * An async readers/writer gate: any number of shared holders at once, or one exclusive holder alone. Waiters are
 * admitted in arrival order (a shared request behind a waiting exclusive one waits too), so a stream of shared
 * requests cannot keep an exclusive one out for ever. The twin's DynamoDB front end passes every request through it:
 * plain requests share, transactions are exclusive (docs/local-twin.md#transactions).
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
