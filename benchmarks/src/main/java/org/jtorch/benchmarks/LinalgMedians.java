package org.jtorch.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.linalg.Linalg;

/**
 * LinalgBench's cases (plus matrix_exp 256²) as interleaved rounds in one JVM, printing the median, 25th percentile and
 * minimum per case: on a shared machine, interleaving puts every case under the same load, where JMH runs one case
 * after another. Not JMH: run it with the library's classes on the class path,
 *
 * <pre>java --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector -Druns=15 \
 *     -cp jtorch/target/classes:benchmarks/target/classes:$OPENBLAS_JAR org.jtorch.benchmarks.LinalgMedians [case ...]
 * </pre>
 *
 * with {@code $OPENBLAS_JAR} the {@code org.bytedeco:openblas:linux-x86_64} jar; no case names means all.
 */
public final class LinalgMedians {
    private LinalgMedians() {}

    public static void main(String[] args) {
        Torch.manualSeed(0);
        Tensor big = Torch.randn(new long[] {512, 512}, DType.FLOAT64);
        Tensor bigSpd = big.matmul(big.mT())
                .add(Torch.eye(512, 512, DType.FLOAT64, Device.CPU).mul(512.0));
        Tensor batch = Torch.randn(new long[] {64, 64, 64}, DType.FLOAT64);
        Tensor batchSpd = batch.matmul(batch.mT())
                .add(Torch.eye(64, 64, DType.FLOAT64, Device.CPU).mul(64.0));
        Tensor e256 = Torch.randn(new long[] {256, 256}, DType.FLOAT64).div(16.0);
        Map<String, Runnable> cases = new LinkedHashMap<>();
        cases.put("cholesky512", () -> Linalg.cholesky(bigSpd));
        cases.put("eigh512", () -> Linalg.eigh(bigSpd));
        cases.put("svd512", () -> Linalg.svd(big));
        cases.put("polarBatch64x64", () -> Linalg.polar(batch));
        cases.put("matrixSqrthBatch64x64", () -> Linalg.matrixSqrth(batchSpd));
        cases.put("matrixExp256", () -> Linalg.matrixExp(e256));
        Set<String> only = new HashSet<>(Arrays.asList(args));
        List<String> names = new ArrayList<>();
        for (String k : cases.keySet()) if (only.isEmpty() || only.contains(k)) names.add(k);
        int runs = Integer.getInteger("runs", 15);
        for (String k : names) for (int w = 0; w < 5; w++) cases.get(k).run();
        double[][] times = new double[names.size()][runs];
        for (int r = 0; r < runs; r++) {
            for (int i = 0; i < names.size(); i++) {
                long start = System.nanoTime();
                cases.get(names.get(i)).run();
                times[i][r] = (System.nanoTime() - start) / 1e6;
            }
        }
        for (int i = 0; i < names.size(); i++) {
            double[] t = times[i];
            Arrays.sort(t);
            System.out.printf(
                    "%-22s median %8.2f ms  p25 %8.2f  min %8.2f%n", names.get(i), t[runs / 2], t[runs / 4], t[0]);
        }
    }
}
