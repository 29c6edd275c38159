package org.jtorch.benchmarks;

import java.util.concurrent.TimeUnit;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ValuesIndices;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * gather and scatter_add with 1M int64 indices, sort of 1M float32, randn of 16M float32 (the peer is
 * benchmarks/peers/torch_index_sort_random.py, same shapes).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class IndexSortRandomBench {
    static final int M = 1 << 20;
    Tensor src, index, values, dest;
    Generator gen;

    @Setup
    public void setup() {
        gen = new Generator();
        gen.manualSeed(0);
        src = Torch.rand(new long[] {M}, gen);
        index = Torch.randint(0, M, M);
        values = Torch.rand(new long[] {M}, gen);
        dest = Torch.zeros(M);
    }

    @Benchmark
    public Tensor gather1M() {
        return Torch.gather(src, 0, index);
    }

    @Benchmark
    public Tensor scatterAdd1M() {
        return Torch.scatterAdd(dest, 0, index, values);
    }

    @Benchmark
    public ValuesIndices sort1M() {
        return Torch.sort(src);
    }

    @Benchmark
    public Tensor randn16M() {
        return Torch.randn(new long[] {16L << 20}, gen);
    }
}
