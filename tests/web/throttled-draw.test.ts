import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttledDraw } from '#web/lib/throttled-draw.ts';

describe('throttledDraw', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('draws once per window however many requests came, and again in the next window', () => {
    const draw = vi.fn();
    const throttle = throttledDraw(draw, 250);
    for (let i = 0; i < 50; i++) throttle.request();
    vi.advanceTimersByTime(249);
    expect(draw).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(draw).toHaveBeenCalledTimes(1);
    throttle.request();
    vi.advanceTimersByTime(250);
    expect(draw).toHaveBeenCalledTimes(2);
  });

  it('draws nothing once cancelled, and a later request schedules again', () => {
    const draw = vi.fn();
    const throttle = throttledDraw(draw, 250);
    throttle.request();
    throttle.cancel();
    vi.advanceTimersByTime(1000);
    expect(draw).not.toHaveBeenCalled();
    throttle.request();
    vi.advanceTimersByTime(250);
    expect(draw).toHaveBeenCalledTimes(1);
  });
});
