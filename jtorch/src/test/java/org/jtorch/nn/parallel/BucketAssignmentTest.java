package org.jtorch.nn.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.junit.jupiter.api.Test;

/**
 * DDP's bucket assignment without processes: PyTorch's assignment by size (the expected buckets are PyTorch 2.13's,
 * printed by {@code python jtorch/src/test/python/print_ddp_buckets.py} for the same parameters in the same gradient
 * order), and the final bucket, whose expected contents follow from its definition by hand: the trailing parameters of
 * the last one's dtype that fit its cap, never fewer than one.
 */
class BucketAssignmentTest {
    private static final long MIB = 1 << 20;

    /** A float32 parameter of {@code rows} × {@code cols}. */
    private static Tensor param(long rows, long cols) {
        return Torch.zeros(new long[] {rows, cols}, DType.FLOAT32, Device.CPU);
    }

    /** DdpCheck's Layers: a 512×512, b 256×512, c 512×256, d 256×256 (1 MiB, 512 KiB, 512 KiB, 256 KiB). */
    private final Tensor a = param(512, 512), b = param(256, 512), c = param(512, 256), d = param(256, 256);

    private final List<Tensor> registered = List.of(a, b, c, d);
    /** The order the first backward of Layers produces the gradients in: b, a, c, d. */
    private final List<Tensor> arrival = List.of(b, a, c, d);

    private List<List<Integer>> positions(List<List<Tensor>> buckets) {
        Map<Tensor, Integer> position = new IdentityHashMap<>();
        for (int i = 0; i < registered.size(); i++) position.put(registered.get(i), i);
        List<List<Integer>> out = new ArrayList<>();
        for (List<Tensor> bucket : buckets)
            out.add(bucket.stream().map(position::get).toList());
        return out;
    }

    private static List<Long> bytes(List<List<Tensor>> buckets) {
        return buckets.stream()
                .map(bucket -> bucket.stream()
                        .mapToLong(p -> p.numel() * p.dtype().itemSize())
                        .sum())
                .toList();
    }

    @Test
    void rebuiltBucketsFollowTheGradientOrderAsPyTorchsDo() {
        // bucket_cap_mb default (1 MiB first, then 25 MiB): [[1, 0], [2, 3]], 1572864 and 786432 bytes.
        List<List<Tensor>> buckets = BucketAssignment.bySize(arrival, new long[] {MIB, 25 * MIB});
        assertEquals(List.of(List.of(1, 0), List.of(2, 3)), positions(buckets));
        assertEquals(List.of(1572864L, 786432L), bytes(buckets));
        // bucket_cap_mb=0.3: every parameter closes a bucket.
        long cap = (long) (0.3 * MIB);
        buckets = BucketAssignment.bySize(arrival, new long[] {cap, cap});
        assertEquals(List.of(List.of(1), List.of(0), List.of(2), List.of(3)), positions(buckets));
        // bucket_cap_mb=2: [[1, 0, 2], [3]].
        buckets = BucketAssignment.bySize(arrival, new long[] {2 * MIB, 2 * MIB});
        assertEquals(List.of(List.of(1, 0, 2), List.of(3)), positions(buckets));
        assertEquals(List.of(2097152L, 262144L), bytes(buckets));
    }

    @Test
    void theFinalBucketHoldsTheLastGradientsThatFitItsCap() {
        long[] limits = {MIB, 25 * MIB};
        // 0.3 MiB: d (256 KiB) fits, c would not; the others are assigned as before, without d.
        List<List<Tensor>> buckets = BucketAssignment.withFinalBucket(arrival, limits, (long) (0.3 * MIB));
        assertEquals(List.of(List.of(1, 0), List.of(2), List.of(3)), positions(buckets));
        assertEquals(List.of(1572864L, 524288L, 262144L), bytes(buckets));
        // 2 MiB: d, c and a (1.75 MiB) fit, b would not.
        buckets = BucketAssignment.withFinalBucket(arrival, limits, 2 * MIB);
        assertEquals(List.of(List.of(1), List.of(0, 2, 3)), positions(buckets));
        assertEquals(List.of(524288L, 1835008L), bytes(buckets));
    }

    @Test
    void theFinalBucketTakesTheLastParameterEvenWhenItExceedsTheCap() {
        List<Tensor> order = List.of(b, c, d, a); // a (1 MiB) last
        List<List<Tensor>> buckets = BucketAssignment.withFinalBucket(order, new long[] {25 * MIB}, 1024);
        assertEquals(List.of(List.of(1, 2, 3), List.of(0)), positions(buckets));
    }

    @Test
    void everyParameterIsInExactlyOneBucketInTheGivenOrder() {
        for (long finalBytes : new long[] {0, 1, 300_000, MIB, 100 * MIB}) {
            for (long cap : new long[] {1, 400_000, MIB, 25 * MIB}) {
                List<List<Tensor>> buckets = BucketAssignment.withFinalBucket(arrival, new long[] {cap}, finalBytes);
                List<Tensor> flat = buckets.stream().flatMap(List::stream).toList();
                assertEquals(
                        positions(List.of(arrival)), positions(List.of(flat)), "cap " + cap + " final " + finalBytes);
            }
        }
        assertEquals(List.of(), BucketAssignment.withFinalBucket(List.of(), new long[] {MIB}, MIB));
    }

    @Test
    void withoutAFinalCapTheAssignmentIsPyTorchs() {
        long[] limits = {MIB, 25 * MIB};
        assertEquals(
                positions(BucketAssignment.bySize(arrival, limits)),
                positions(BucketAssignment.withFinalBucket(arrival, limits, 0)));
    }

    @Test
    void theFinalBucketHoldsOneDtypeAndOtherDtypesKeepTheirBuckets() {
        Tensor half = Torch.zeros(new long[] {4}, DType.FLOAT16, Device.CPU);
        Tensor e = param(2, 2);
        List<Tensor> order = List.of(a, half, e, d);
        // d and e are float32 and fit 1 MiB together; the float16 parameter before them ends the final bucket.
        List<List<Tensor>> buckets = BucketAssignment.withFinalBucket(order, new long[] {25 * MIB}, MIB);
        assertEquals(3, buckets.size());
        assertEquals(List.of(a), buckets.get(0));
        assertEquals(List.of(half), buckets.get(1));
        assertEquals(List.of(e, d), buckets.get(2));
    }
}
