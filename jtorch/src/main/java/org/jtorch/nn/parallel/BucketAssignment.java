package org.jtorch.nn.parallel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;

/**
 * How DDP groups parameters into gradient buckets, given the order in which their gradients are expected: PyTorch's
 * {@code compute_bucket_assignment_by_size}, and optionally a separate final bucket for the gradients that arrive last.
 *
 * <p>A bucket's all-reduce can start only when its last gradient has arrived, so whatever the last bucket holds is
 * reduced after backward has finished: the tail before the optimizer step. PyTorch's assignment fills buckets from the
 * front, which leaves the remainder, up to a whole cap, at the end; a final bucket capped on its own leaves only those
 * few gradients to reduce after the last one arrives.
 */
final class BucketAssignment {
    private BucketAssignment() {}

    /**
     * PyTorch's {@code compute_bucket_assignment_by_size} on {@code ordered}: one open bucket per dtype, closed once it
     * holds at least its limit, the limits of a dtype taken in turn from {@code limits} (the last one repeating);
     * buckets closed in order, then the open ones in the order of their dtype's first parameter.
     */
    static List<List<Tensor>> bySize(List<Tensor> ordered, long[] limits) {
        record Open(List<Tensor> params, long bytes, int limit) {}
        Map<DType, Open> open = new LinkedHashMap<>();
        List<List<Tensor>> closed = new ArrayList<>();
        for (Tensor p : ordered) {
            Open o = open.getOrDefault(p.dtype(), new Open(new ArrayList<>(), 0, 0));
            o.params().add(p);
            long bytes = o.bytes() + bytes(p);
            if (bytes >= limits[o.limit()]) {
                closed.add(o.params());
                open.put(p.dtype(), new Open(new ArrayList<>(), 0, Math.min(o.limit() + 1, limits.length - 1)));
            } else {
                open.put(p.dtype(), new Open(o.params(), bytes, o.limit()));
            }
        }
        for (Open o : open.values()) if (!o.params().isEmpty()) closed.add(o.params());
        return closed;
    }

    /**
     * {@link #bySize} with a final bucket: the parameters at the end of {@code ordered} (the last gradients to arrive)
     * that share the last one's dtype and together take at most {@code finalBytes} (at least the last parameter,
     * whatever its size) form the last bucket; the others are assigned by size before it. With {@code finalBytes} 0,
     * this is {@link #bySize}.
     */
    static List<List<Tensor>> withFinalBucket(List<Tensor> ordered, long[] limits, long finalBytes) {
        if (finalBytes == 0 || ordered.isEmpty()) return bySize(ordered, limits);
        DType dtype = ordered.getLast().dtype();
        int start = ordered.size() - 1;
        long bytes = bytes(ordered.get(start));
        while (start > 0
                && ordered.get(start - 1).dtype() == dtype
                && bytes + bytes(ordered.get(start - 1)) <= finalBytes) {
            bytes += bytes(ordered.get(--start));
        }
        List<List<Tensor>> buckets = bySize(ordered.subList(0, start), limits);
        buckets.add(new ArrayList<>(ordered.subList(start, ordered.size())));
        return buckets;
    }

    private static long bytes(Tensor p) {
        return p.numel() * p.dtype().itemSize();
    }
}
