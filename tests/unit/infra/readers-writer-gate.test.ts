import { describe, expect, it } from 'vitest';
import { ReadersWriterGate } from '#infra/local/readers-writer-gate.ts';

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
