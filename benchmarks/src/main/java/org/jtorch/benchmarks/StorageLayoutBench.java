package org.jtorch.benchmarks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The measurement behind docs/adr/0001-storage.md: the same Vector API loops (add, exp, sum; 16 Mi floats, one thread)
 * over heap {@code float[]} against native memory, and the cost of allocating a 64 MiB result each way.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class StorageLayoutBench {
    static final int N = 1 << 24;
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT.withOrder(ByteOrder.nativeOrder());
    float[] ha, hb, hc;
    Arena arena;
    MemorySegment na, nb, nc;

    @Setup
    public void setup() {
        ha = new float[N];
        hb = new float[N];
        hc = new float[N];
        for (int i = 0; i < N; i++) {
            ha[i] = (float) Math.sin(i);
            hb[i] = (float) Math.cos(i);
        }
        arena = Arena.ofShared();
        na = arena.allocate(4L * N, 64);
        nb = arena.allocate(4L * N, 64);
        nc = arena.allocate(4L * N, 64);
        MemorySegment.copy(MemorySegment.ofArray(ha), 0, na, 0, 4L * N);
        MemorySegment.copy(MemorySegment.ofArray(hb), 0, nb, 0, 4L * N);
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public float[] addHeap() {
        for (int i = 0; i < N; i += S.length()) {
            FloatVector.fromArray(S, ha, i).add(FloatVector.fromArray(S, hb, i)).intoArray(hc, i);
        }
        return hc;
    }

    @Benchmark
    public MemorySegment addNative() {
        for (long i = 0; i < 4L * N; i += 4L * S.length()) {
            FloatVector.fromMemorySegment(S, na, i, ByteOrder.nativeOrder())
                    .add(FloatVector.fromMemorySegment(S, nb, i, ByteOrder.nativeOrder()))
                    .intoMemorySegment(nc, i, ByteOrder.nativeOrder());
        }
        return nc;
    }

    @Benchmark
    public float[] expHeap() {
        for (int i = 0; i < N; i += S.length()) {
            FloatVector.fromArray(S, ha, i).lanewise(VectorOperators.EXP).intoArray(hc, i);
        }
        return hc;
    }

    @Benchmark
    public MemorySegment expNative() {
        for (long i = 0; i < 4L * N; i += 4L * S.length()) {
            FloatVector.fromMemorySegment(S, na, i, ByteOrder.nativeOrder())
                    .lanewise(VectorOperators.EXP)
                    .intoMemorySegment(nc, i, ByteOrder.nativeOrder());
        }
        return nc;
    }

    @Benchmark
    public float sumHeap() {
        FloatVector acc = FloatVector.zero(S);
        for (int i = 0; i < N; i += S.length()) acc = acc.add(FloatVector.fromArray(S, ha, i));
        return acc.reduceLanes(VectorOperators.ADD);
    }

    @Benchmark
    public float sumNative() {
        FloatVector acc = FloatVector.zero(S);
        for (long i = 0; i < 4L * N; i += 4L * S.length()) {
            acc = acc.add(FloatVector.fromMemorySegment(S, na, i, ByteOrder.nativeOrder()));
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    /** A fresh 64 MiB result on the heap: zeroing only, the heap is already faulted in. */
    @Benchmark
    public float[] allocateHeap() {
        return new float[N];
    }

    /** A fresh 64 MiB native result: Arena allocation zeroes and faults every page on first touch. */
    @Benchmark
    public float allocateNative() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(4L * N, 64);
            return s.get(F, 4L * (N - 1));
        }
    }
}
