import { monitorEventLoopDelay } from 'perf_hooks';

/**
 * Event-loop delay in ms (p99 and max) of this process from now on. Node's histogram counts from a timer's due
 * time plus its interval, so an idle loop reads the interval itself: that is taken off, and a delay under it reads 0.
 */
export function watchLoopDelay(resolutionMs = 10): { read(): { p99: number; max: number }; reset(): void; stop(): void } {
    const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
    histogram.enable();
    const ms = (ns: number) => Math.max(0, ns / 1e6 - resolutionMs);
    return {
        read: () => ({ p99: ms(histogram.percentile(99)), max: ms(histogram.max) }),
        reset: () => histogram.reset(),
        stop: () => histogram.disable()
    };
}
