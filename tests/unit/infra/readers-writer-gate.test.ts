import { describe, expect, it } from 'vitest';
import { ItemLocks, ReadersWriterGate } from '#infra/local/readers-writer-gate.ts';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the twin's readers/writer gate (infra/local/readers-writer-gate.ts)", () => {
  it('lets shared holders in together and keeps an exclusive one out until they are all gone', async () => {
    const gate = new ReadersWriterGate();
    const first = await gate.shared();
    const second = await gate.shared();
    let exclusiveIn = false;
    const exclusive = gate.exclusive().then((release) => {
      exclusiveIn = true;
      return release;
    });
    await settle();
    expect(exclusiveIn).toBe(false);
    first();
    await settle();
    expect(exclusiveIn).toBe(false);
    second();
    const release = await exclusive;
    expect(gate.state).toEqual({ shared: 0, exclusive: true, waiting: 0 });
    release();
    expect(gate.state).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });

  it('admits in arrival order: a shared request behind a waiting exclusive one waits for it', async () => {
    const gate = new ReadersWriterGate();
    const order: string[] = [];
    const holder = await gate.shared();
    const writer = gate.run(true, async () => void order.push('exclusive'));
    const reader = gate.run(false, async () => void order.push('late shared'));
    await settle();
    expect(order).toEqual([]);
    expect(gate.state.waiting).toBe(2);
    holder();
    await Promise.all([writer, reader]);
    expect(order).toEqual(['exclusive', 'late shared']);
  });

  it('releases once however often the release is called, and when the work throws', async () => {
    const gate = new ReadersWriterGate();
    const release = await gate.shared();
    release();
    release();
    expect(gate.state.shared).toBe(0);
    await expect(gate.run(true, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(gate.state).toEqual({ shared: 0, exclusive: false, waiting: 0 });
  });
});

describe("the twin's item locks (ItemLocks)", () => {
  it('lets requests on different items through together and queues a write behind a holder of its item', async () => {
    const locks = new ItemLocks();
    const transaction = await locks.hold([
      { item: 'a', exclusive: true },
      { item: 'b', exclusive: true },
    ]);
    // Another item is not held up by the transaction.
    const other = await locks.hold([{ item: 'c', exclusive: true }]);
    let readerIn = false;
    const reader = locks.hold([{ item: 'b', exclusive: false }]).then((release) => {
      readerIn = true;
      return release;
    });
    await settle();
    expect(readerIn).toBe(false);
    transaction();
    (await reader)();
    other();
    expect(readerIn).toBe(true);
    // Nothing holds or awaits an item any more: no gate is kept.
    expect(locks.size).toBe(0);
  });

  it('takes items in one order, so two requests naming the same items in opposite orders never deadlock', async () => {
    const locks = new ItemLocks();
    const done: string[] = [];
    const one = locks.hold([
      { item: 'x', exclusive: true },
      { item: 'y', exclusive: true },
    ]);
    const two = locks.hold([
      { item: 'y', exclusive: true },
      { item: 'x', exclusive: true },
    ]);
    await Promise.all(
      [one, two].map(async (held, i) => {
        const release = await held;
        done.push(`request ${i + 1}`);
        await settle();
        release();
      }),
    );
    expect(done).toEqual(['request 1', 'request 2']);
    expect(locks.size).toBe(0);
  });

  it('holds an item named twice once, exclusively when either asks, and releases once', async () => {
    const locks = new ItemLocks();
    const release = await locks.hold([
      { item: 'a', exclusive: false },
      { item: 'a', exclusive: true },
    ]);
    let readerIn = false;
    const reader = locks.hold([{ item: 'a', exclusive: false }]).then((r) => ((readerIn = true), r));
    await settle();
    expect(readerIn).toBe(false);
    release();
    release();
    (await reader)();
    expect(locks.size).toBe(0);
  });
});
