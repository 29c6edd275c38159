package org.jtorch.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.io.LoadOptions;
import org.jtorch.io.PyOrderedDict;
import org.jtorch.io.Serialization;

/**
 * Save and load of a 1 GiB state dict ({@code torch.save} / {@code torch.load}, copying and {@code mmap=True}), as a
 * whole program: I/O of this size is one operation per run, not a micro-benchmark. The side-by-side PyTorch run is
 * {@code benchmarks/peers/serialization_bench.py} (same state dict, same steps).
 *
 * <p>Run (repository root, JDK 25): {@code ./mvnw -q -pl benchmarks -am -DskipTests package} then {@code java
 * --add-modules=jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx3g -cp
 * "benchmarks/target/classes:jtorch/target/classes" org.jtorch.benchmarks.SerializationBench [dir] [GiB] [runs]}.
 *
 * <p>Steps per run: save (atomic: temporary file, fsync, rename); copying load (the file is in the page cache after the
 * save: this measures the reader and the copy, not the disk); mmap load; mmap load plus a full read of every tensor
 * (what laziness defers). Heap is measured after a full GC with the loaded object still reachable. Each line:
 * {@code peer=P bench=B value=V unit=U n=N min=.. max=..} (median).
 */
public final class SerializationBench {
    private SerializationBench() {}

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : System.getProperty("java.io.tmpdir"));
        double gib = args.length > 1 ? Double.parseDouble(args[1]) : 1.0;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int tensors = 16;
        long perTensor = (long) (gib * (1L << 30) / 4 / tensors);
        PyOrderedDict sd = new PyOrderedDict();
        for (int i = 0; i < tensors; i++)
            sd.put("layers." + i + ".weight", Torch.full(new long[] {perTensor / 1024, 1024}, i + 0.5));
        Path path = dir.resolve("jtorch_bench_state_dict.pt");
        String size = String.format("%.3gGiB", gib);

        List<Double> save = new ArrayList<>();
        List<Double> copy = new ArrayList<>();
        List<Double> mmap = new ArrayList<>();
        List<Double> mmapRead = new ArrayList<>();
        double copyHeap = 0;
        double mmapHeap = 0;
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            Serialization.save(sd, path);
            save.add(ms(t0));

            long before = heapAfterGc();
            t0 = System.nanoTime();
            Object loaded = Serialization.load(path);
            copy.add(ms(t0));
            copyHeap = (heapAfterGc() - before) / 1048576.0;
            check(loaded, tensors);
            loaded = null;

            before = heapAfterGc();
            t0 = System.nanoTime();
            Object mapped = Serialization.load(path, LoadOptions.defaults().mmap(true));
            mmap.add(ms(t0));
            mmapHeap = (heapAfterGc() - before) / 1048576.0;
            check(mapped, tensors);
            mapped = null;

            t0 = System.nanoTime();
            Map<?, ?> m =
                    (Map<?, ?>) Serialization.load(path, LoadOptions.defaults().mmap(true));
            double sum = 0;
            for (Object t : m.values()) sum += ((Tensor) t).sum().item();
            mmapRead.add(ms(t0));
            if (sum <= 0) throw new AssertionError("read nothing");
        }
        emit("save_state_dict_" + size, save, "ms");
        emit("load_copy_" + size, copy, "ms");
        emit("load_mmap_" + size, mmap, "ms");
        emit("load_mmap_then_sum_all_" + size, mmapRead, "ms");
        System.out.printf("peer=jtorch bench=load_copy_heap_%s value=%.1f unit=MiB n=1%n", size, copyHeap);
        System.out.printf("peer=jtorch bench=load_mmap_heap_%s value=%.1f unit=MiB n=1%n", size, mmapHeap);
        Files.deleteIfExists(path);
    }

    private static void check(Object loaded, int tensors) {
        if (((Map<?, ?>) loaded).size() != tensors) throw new AssertionError("wrong state dict");
    }

    private static double ms(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void emit(String bench, List<Double> samples, String unit) {
        List<Double> s = new ArrayList<>(samples);
        Collections.sort(s);
        System.out.printf(
                "peer=jtorch bench=%s value=%.4g unit=%s n=%d min=%.4g max=%.4g%n",
                bench, s.get(s.size() / 2), unit, s.size(), s.get(0), s.get(s.size() - 1));
    }
}
