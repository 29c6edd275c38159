package org.jtorch.utils.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Torch;
import org.junit.jupiter.api.Test;

/** DistributedSampler's shards against PyTorch 2.13's, printed by the snippet in each test's comment. */
class DistributedSamplerTest {
    private static List<Integer> shard(
            int n, int replicas, int rank, boolean shuffle, long seed, boolean dropLast, long epoch) {
        DistributedSampler s = new DistributedSampler(
                new TensorDataset(Torch.arange((long) n)), replicas, rank, shuffle, seed, dropLast);
        s.setEpoch(epoch);
        List<Integer> out = new ArrayList<>();
        s.forEach(out::add);
        assertEquals(s.size(), out.size());
        return out;
    }

    @Test
    void paddedShardsAreTorchs() {
        // [list(s) for r in range(3) for s in [DistributedSampler(list(range(10)), 3, r, True, 5)] if not
        //  s.set_epoch(2)]
        assertEquals(List.of(5, 4, 9, 2), shard(10, 3, 0, true, 5, false, 2));
        assertEquals(List.of(0, 1, 6, 5), shard(10, 3, 1, true, 5, false, 2));
        assertEquals(List.of(3, 7, 8, 0), shard(10, 3, 2, true, 5, false, 2));
    }

    @Test
    void droppedTailShardsAreTorchs() {
        // DistributedSampler(list(range(11)), 2, r, True, 0, drop_last=True) after set_epoch(1)
        assertEquals(List.of(0, 2, 7, 4, 1), shard(11, 2, 0, true, 0, true, 1));
        assertEquals(List.of(10, 3, 6, 8, 9), shard(11, 2, 1, true, 0, true, 1));
    }

    @Test
    void unshuffledShardsInterleaveAndPadFromTheStart() {
        // DistributedSampler(list(range(5)), 4, r, shuffle=False): [0, 4], [1, 0], [2, 1], [3, 2]
        assertEquals(List.of(0, 4), shard(5, 4, 0, false, 0, false, 0));
        assertEquals(List.of(1, 0), shard(5, 4, 1, false, 0, false, 0));
        assertEquals(List.of(3, 2), shard(5, 4, 3, false, 0, false, 0));
    }

    @Test
    void aRankOutsideTheReplicasIsRefused() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new DistributedSampler(new TensorDataset(Torch.arange(4L)), 2, 2, true, 0, false));
        assertEquals("Invalid rank 2, rank should be in the interval [0, 1]", e.getMessage());
    }
}
