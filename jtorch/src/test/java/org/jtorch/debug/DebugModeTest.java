package org.jtorch.debug;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.debug.DebugMode.Divergence;
import org.jtorch.debug.DebugRecord.TensorInfo;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.ReductionOps;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class DebugModeTest {
    private static final Tensor X = Torch.tensor(new float[][] {{1, -2, 3}, {4, 5, -6}});
    private static final Tensor Y = Torch.ones(2, 3);

    /** Runs {@code body} inside a DebugMode and returns the mode (closed). */
    private static DebugMode record(DebugMode.Options options, Runnable body) {
        try (DebugMode dm = DebugMode.open(options)) {
            body.run();
            return dm;
        }
    }

    private static DebugMode record(boolean hash, Runnable body) {
        return record(DebugMode.Options.DEFAULTS.withHashTensors(hash), body);
    }

    /** A log excerpt written without the two-space margin and the depth-1 indent that every line carries. */
    private static String depth1(String lines) {
        return lines.lines().map(l -> "    " + l).collect(java.util.stream.Collectors.joining("\n"));
    }

    private static List<String> ops(DebugMode dm) {
        return dm.records().stream().map(DebugRecord::op).toList();
    }

    @Nested
    class Log {
        @Test
        void inPlaceAndOutCallsAreRecorded() {
            Tensor out = Torch.zeros(2, 3);
            Tensor acc = Torch.zeros(2, 3);
            DebugMode dm = record(false, () -> {
                Torch.addOut(out, X, Y);
                acc.add_(X);
            });
            assertEquals(List.of("aten::add.Tensor", "aten::add.Tensor"), ops(dm));
            assertArrayEquals(X.add(Y).toDoubleArray(), out.toDoubleArray(), 0);
        }

        @Test
        void smallProgramInPyTorchFormat() {
            DebugMode dm = record(false, () -> {
                Tensor z = X.add(Y).mul(2.0).relu();
                z.sum(1, true);
                X.to(DType.FLOAT64);
                Torch.add(X, Y, 2.0);
                JoinOps.cat(List.of(Y, Y), 1);
                ReductionOps.max(X, 1);
                X.reshape(3, 2).split(1, 0);
            });
            assertEquals(depth1("""
                        aten::add.Tensor(t: f32[2, 3], t: f32[2, 3])  ->  t: f32[2, 3]
                        aten::mul.Tensor(t: f32[2, 3], 2.0)  ->  t: f32[2, 3]
                        aten::relu(t: f32[2, 3])  ->  t: f32[2, 3]
                        aten::sum.dim_IntList(t: f32[2, 3], [1], True)  ->  t: f32[2, 1]
                        aten::_to_copy(t: f32[2, 3], dtype=torch.float64)  ->  t: f64[2, 3]
                        aten::add.Tensor(t: f32[2, 3], t: f32[2, 3], alpha=2.0)  ->  t: f32[2, 3]
                        aten::cat(['t: f32[2, 3]', 't: f32[2, 3]'], 1)  ->  t: f32[2, 6]
                        aten::max.dim(t: f32[2, 3], 1)  ->  ('t: f32[2]', 't: i64[2]')
                        aten::reshape(t: f32[2, 3], [3, 2])  ->  t: f32[3, 2]
                          aten::view(t: f32[2, 3], [3, 2])  ->  t: f32[3, 2]
                        aten::split.Tensor(t: f32[3, 2], 1)  ->  ['t: f32[1, 2]', 't: f32[1, 2]', 't: f32[1, 2]']
                          aten::slice.Tensor(t: f32[3, 2], 0, 0, 1)  ->  t: f32[1, 2]
                          aten::slice.Tensor(t: f32[3, 2], 0, 1, 2)  ->  t: f32[1, 2]
                          aten::slice.Tensor(t: f32[3, 2], 0, 2, 3)  ->  t: f32[1, 2]"""), dm.log());
        }

        @Test
        void compositeOpsNestTheirOps() {
            Tensor v = Torch.tensor(new float[] {1, 2, 3});
            Tensor m = Torch.ones(3, 4);
            DebugMode dm = record(false, () -> {
                v.matmul(m);
                X.t().reshape(6); // the transposed view needs a copy
            });
            assertEquals(depth1("""
                        aten::matmul(t: f32[3], t: f32[3, 4])  ->  t: f32[4]
                          aten::unsqueeze(t: f32[3], 0)  ->  t: f32[1, 3]
                          aten::mm(t: f32[1, 3], t: f32[3, 4])  ->  t: f32[1, 4]
                          aten::squeeze.dims(t: f32[1, 4], [0])  ->  t: f32[4]
                        aten::t(t: f32[2, 3])  ->  t: f32[3, 2]
                          aten::transpose.int(t: f32[2, 3], 0, 1)  ->  t: f32[3, 2]
                        aten::reshape(t: f32[3, 2], [6])  ->  t: f32[6]
                          aten::_to_copy(t: f32[3, 2])  ->  t: f32[3, 2]
                          aten::view(t: f32[3, 2], [6])  ->  t: f32[6]"""), dm.log());
            List<DebugRecord> r = dm.records();
            assertEquals(
                    List.of(1, 2, 2, 2, 1, 2, 1, 2, 2),
                    r.stream().map(DebugRecord::depth).toList());
            // Nested calls return before their caller.
            assertEquals(
                    List.of(3, 0, 1, 2, 5, 4, 8, 6, 7),
                    r.stream().map(DebugRecord::returnOrder).toList());
        }

        @Test
        void specExampleReluThenMm() {
            Tensor x = Torch.ones(8, 8), y = Torch.ones(8, 8);
            DebugMode dm = record(DebugMode.Options.DEFAULTS.withRecordOutput(false), () -> Torch.mm(Torch.relu(x), y));
            assertEquals("    aten::relu(t: f32[8, 8])\n    aten::mm(t: f32[8, 8], t: f32[8, 8])", dm.log());
        }

        @Test
        void normHashAnnotatesTheOutput() {
            Tensor x = Torch.tensor(new float[] {-1, 2, -3, 4});
            DebugMode dm;
            try (DebugMode d = DebugMode.open(false);
                    var _ = DebugMode.logTensorHashes(HashFn.NORM, false)) {
                x.relu();
                dm = d;
            }
            assertEquals("    aten::relu(t: f32[4])  ->  t: f32[4]  # {'hash': 6.0}", dm.log());
        }

        @Test
        void inputHashesFollowPositionalAndKeywordArguments() {
            DebugMode dm =
                    record(DebugMode.Options.DEFAULTS.withHashTensors(true).withHashFn(HashFn.NORM), () -> {
                        Torch.add(X, Y, 2.0);
                        X.mul(2.0);
                        JoinOps.cat(List.of(Y, Y), 0);
                        ReductionOps.max(X, 1);
                    });
            assertEquals(depth1("""
                        aten::add.Tensor(t: f32[2, 3], t: f32[2, 3], alpha=2.0)  ->  t: f32[2, 3]  \
                        # {'hash': 25.0, 'input_hash': ((21.0, 6.0), {'alpha': None})}
                        aten::mul.Tensor(t: f32[2, 3], 2.0)  ->  t: f32[2, 3]  \
                        # {'hash': 42.0, 'input_hash': ((21.0, None), {})}
                        aten::cat(['t: f32[2, 3]', 't: f32[2, 3]'])  ->  t: f32[4, 3]  \
                        # {'hash': 12.0, 'input_hash': (([6.0, 6.0],), {})}
                        aten::max.dim(t: f32[2, 3], 1)  ->  ('t: f32[2]', 't: i64[2]')  \
                        # {'hash': (8.0, 3.0), 'input_hash': ((21.0, None), {})}"""), dm.log());
        }

        @Test
        void bitsHashesPrintAsHex() {
            DebugMode dm = record(true, () -> X.neg());
            DebugRecord r = dm.records().get(0);
            String out = r.outputs().get(0).hash().toString(),
                    in = r.inputs().get(0).hash().toString();
            assertTrue(out.matches("0x[0-9a-f]{16}"), out);
            assertEquals(
                    "aten::neg(t: f32[2, 3])  ->  t: f32[2, 3]  # {'hash': " + out + ", 'input_hash': ((" + in
                            + ",), {})}",
                    r.line());
            assertEquals(TensorHash.of(X, HashFn.BITS), r.inputs().get(0).hash());
            assertEquals(TensorHash.of(X.neg(), HashFn.BITS), r.outputs().get(0).hash());
        }

        @Test
        void hashInputsCanBeTurnedOff() {
            DebugMode dm =
                    record(DebugMode.Options.DEFAULTS.withHashTensors(true).withHashInputs(false), () -> X.neg());
            DebugRecord r = dm.records().get(0);
            assertNull(r.inputs().get(0).hash());
            assertEquals("{'hash': " + r.outputs().get(0).hash() + "}", r.annotation());
        }

        @Test
        void idsAndAttributes() {
            Tensor v = Torch.tensor(new float[] {1, 2});
            DebugMode dm = record(
                    DebugMode.Options.DEFAULTS.withRecordIds(true).withTensorAttributes("device", "requires_grad"),
                    () -> v.neg().abs().add(v));
            assertEquals(depth1("""
                        aten::neg(t$0: f32[2]{device=cpu, requires_grad=False})  ->  \
                        t$1: f32[2]{device=cpu, requires_grad=False}
                        aten::abs(t$1: f32[2]{device=cpu, requires_grad=False})  ->  \
                        t$2: f32[2]{device=cpu, requires_grad=False}
                        aten::add.Tensor(t$2: f32[2]{device=cpu, requires_grad=False}, \
                        t$0: f32[2]{device=cpu, requires_grad=False})  ->  \
                        t$3: f32[2]{device=cpu, requires_grad=False}"""), dm.log());
        }

        @Test
        void unknownTensorAttributeIsRejected() {
            var e = assertThrows(
                    IllegalArgumentException.class, () -> DebugMode.Options.DEFAULTS.withTensorAttributes("stride"));
            assertTrue(e.getMessage().contains("unknown tensor attribute 'stride'"), e.getMessage());
        }

        @Test
        void recordsCarryDtypesShapesAndDevices() {
            Tensor i = Torch.tensor(new long[] {1, 2, 3});
            DebugMode dm = record(false, () -> i.add(X.sum(0).to(DType.FLOAT64)));
            DebugRecord add = dm.records().get(2);
            assertEquals("aten::add.Tensor", add.op());
            assertEquals(2, add.index());
            assertEquals(
                    List.of(
                            new TensorInfo(DType.INT64, new long[] {3}, Device.CPU, null),
                            new TensorInfo(DType.FLOAT64, new long[] {3}, Device.CPU, null)),
                    add.inputs());
            assertEquals(List.of(new TensorInfo(DType.FLOAT64, new long[] {3}, Device.CPU, null)), add.outputs());
            assertEquals("t: f64[3]", add.outputs().get(0).toString());
            assertEquals("t: i64[3], t: f64[3]", add.args());
        }

        @Test
        void metaTensorsRecordShapesWithoutHashes() {
            Tensor a = Torch.ones(new long[] {2, 3}, DType.FLOAT32, Device.META);
            Tensor b = Torch.ones(new long[] {3, 4}, DType.FLOAT32, Device.META);
            DebugMode dm = record(
                    DebugMode.Options.DEFAULTS.withHashTensors(true).withTensorAttributes("device"), () -> a.matmul(b));
            assertEquals(depth1("""
                        aten::matmul(t: f32[2, 3]{device=meta}, t: f32[3, 4]{device=meta})  ->  \
                        t: f32[2, 4]{device=meta}
                          aten::mm(t: f32[2, 3]{device=meta}, t: f32[3, 4]{device=meta})  ->  \
                        t: f32[2, 4]{device=meta}"""), dm.log());
            TensorInfo out = dm.records().get(1).outputs().get(0);
            assertEquals(Device.META, out.device());
            assertNull(out.hash());
        }
    }

    @Nested
    class Hashes {
        /** A pointwise chain and a reduction over 10⁶ elements, all parallel kernels. */
        private static String bigRun(int threads) {
            int before = Parallel.numThreads();
            try {
                Parallel.setNumThreads(threads);
                Tensor x = Torch.arange(0.0, 1_000_000.0, 1.0, DType.FLOAT32);
                return record(true, () -> {
                            Tensor y = x.mul(1e-3).sin();
                            y.mul(y).add(x).sum();
                        })
                        .log();
            } finally {
                Parallel.setNumThreads(before);
            }
        }

        @Test
        void equalAcrossRunsAndThreadCounts() {
            String one = bigRun(1);
            assertEquals(5, one.lines().count());
            assertEquals(7 + 5, one.split("0x").length - 1, "every input and output hashed: " + one);
            assertEquals(one, bigRun(1));
            assertEquals(one, bigRun(2));
        }
    }

    @Nested
    class FirstDivergence {
        private final Tensor m = Torch.arange(0.0, 12.0, 1.0, DType.FLOAT32).reshape(3, 4);

        /** x·2 + y, relu, column sums, then a 1-D·2-D matmul (a composite) with m, and a total. */
        private static void program(Tensor x, Tensor y, Tensor m) {
            Tensor c = x.mul(2.0).add(y).relu();
            c.sum(0).matmul(m).sum();
        }

        private static Tensor perturbed(Tensor t, int flat, float delta) {
            float[] data = t.toFloatArray();
            data[flat] += delta;
            return Torch.tensor(data).reshape(t.shape());
        }

        private DebugMode run(DebugMode.Options o, Tensor x, Tensor y, Tensor m) {
            return record(o, () -> program(x, y, m));
        }

        private DebugMode run(Tensor x, Tensor y, Tensor m) {
            return run(DebugMode.Options.DEFAULTS.withHashTensors(true), x, y, m);
        }

        @Test
        void identicalRunsDoNotDiverge() {
            assertEquals(Optional.empty(), DebugMode.firstDivergence(run(X, Y, m), run(X, Y, m)));
        }

        @Test
        void namesTheOpThatFirstConsumesAPerturbedInput() {
            DebugMode base = run(X, Y, m);
            Divergence d = DebugMode.firstDivergence(base, run(X, perturbed(Y, 4, 1e-3f), m))
                    .orElseThrow();
            assertEquals(Divergence.Kind.OUTPUT, d.kind());
            assertEquals("aten::add.Tensor", d.op());
            assertEquals(1, d.index());
            assertEquals(0, d.output());
            assertTrue(d.toString().startsWith("aten::add.Tensor (record 1): output 0 hash 0x"), d.toString());
            // The first op (x·2) does not see y: its outputs agree.
            assertEquals(
                    base.records().get(0).outputs(),
                    run(X, perturbed(Y, 4, 1e-3f), m).records().get(0).outputs());
        }

        @Test
        void namesTheInnermostOpInsideAComposite() {
            // m only reaches mm inside matmul: mm returns (and differs) before matmul does.
            Divergence d = DebugMode.firstDivergence(run(X, Y, m), run(X, Y, perturbed(m, 7, 0.5f)))
                    .orElseThrow();
            assertEquals("aten::mm", d.op());
            assertEquals(2, d.left().depth());
            assertEquals(
                    List.of(
                            "aten::mul.Tensor",
                            "aten::add.Tensor",
                            "aten::relu",
                            "aten::sum.dim_IntList",
                            "aten::matmul",
                            "aten::unsqueeze",
                            "aten::mm"),
                    ops(run(X, Y, m)).subList(0, d.index() + 1));
        }

        @Test
        void aPerturbationShowsUpAtTheFirstOpThatSeesIt() {
            // x[0, 1] = -2 → -2.25 changes x·2 and x·2 + y, but relu maps both runs' value to 0.
            Divergence d = DebugMode.firstDivergence(run(X, Y, m), run(perturbed(X, 1, -0.25f), Y, m))
                    .orElseThrow();
            assertEquals("aten::mul.Tensor", d.op());
            List<DebugRecord> a = run(X, Y, m).records(),
                    b = run(perturbed(X, 1, -0.25f), Y, m).records();
            assertEquals(a.get(2).outputs(), b.get(2).outputs(), "relu output agrees");
        }

        @Test
        void differentCallsAreACallDivergence() {
            DebugMode.Options o = DebugMode.Options.DEFAULTS.withHashTensors(true);
            DebugMode a = record(o, () -> X.mul(2.0).add(Y));
            DebugMode b = record(o, () -> X.mul(2.0).sub(Y));
            Divergence d = DebugMode.firstDivergence(a, b).orElseThrow();
            assertEquals(Divergence.Kind.CALL, d.kind());
            assertEquals(1, d.index());
            assertEquals("aten::add.Tensor", d.left().op());
            assertEquals("aten::sub.Tensor", d.right().op());
            assertEquals(-1, d.output());

            DebugMode shorter = record(o, () -> X.mul(2.0));
            Divergence end = DebugMode.firstDivergence(shorter, a).orElseThrow();
            assertEquals(Divergence.Kind.CALL, end.kind());
            assertNull(end.left());
            assertTrue(end.toString().startsWith("record 1: <end of log> vs aten::add.Tensor("), end.toString());
        }

        @Test
        void anOutputDifferenceBeforeTheCallsPartWins() {
            DebugMode.Options o = DebugMode.Options.DEFAULTS.withHashTensors(true);
            DebugMode a = record(o, () -> X.mul(2.0).add(Y));
            DebugMode b = record(o, () -> X.mul(3.0).add(Y).neg());
            Divergence d = DebugMode.firstDivergence(a, b).orElseThrow();
            assertEquals(Divergence.Kind.CALL, d.kind(), "mul's args differ, so the calls part at record 0");
            Tensor px = perturbed(X, 0, 1f);
            DebugMode c = record(o, () -> px.mul(2.0).add(Y).neg());
            Divergence e = DebugMode.firstDivergence(a, c).orElseThrow();
            assertEquals(Divergence.Kind.OUTPUT, e.kind());
            assertEquals("aten::mul.Tensor", e.op());
        }

        @Test
        void needsHashesOfTheSameFunction() {
            DebugMode plain = run(DebugMode.Options.DEFAULTS, X, Y, m);
            var e = assertThrows(IllegalArgumentException.class, () -> DebugMode.firstDivergence(plain, run(X, Y, m)));
            assertTrue(e.getMessage().contains("has no hash in the first log"), e.getMessage());
            var f = assertThrows(IllegalArgumentException.class, () -> DebugMode.firstDivergence(plain, plain));
            assertTrue(f.getMessage().contains("open both DebugModes with hashTensors"), f.getMessage());
            DebugMode norm =
                    run(DebugMode.Options.DEFAULTS.withHashTensors(true).withHashFn(HashFn.NORM), X, Y, m);
            var g = assertThrows(IllegalArgumentException.class, () -> DebugMode.firstDivergence(norm, run(X, Y, m)));
            assertTrue(g.getMessage().contains("hashed with NORM in one log and BITS in the other"), g.getMessage());
        }

        @Test
        void metaOnlyLogsCompareByCalls() {
            Tensor a = Torch.ones(new long[] {2, 3}, DType.FLOAT32, Device.META);
            DebugMode x = record(true, () -> a.neg()), y = record(true, () -> a.neg());
            assertEquals(Optional.empty(), DebugMode.firstDivergence(x, y));
        }
    }

    @Nested
    class Transparency {
        private static Tensor[] compute() {
            Tensor v = Torch.tensor(new float[] {0.5f, -1.5f, 2.25f});
            Tensor a = X.t().reshape(6).sin().mul(3.0);
            Tensor b = v.matmul(X.t()).exp();
            return new Tensor[] {a, b, ReductionOps.max(X, 0).indices(), a.sum()};
        }

        @Test
        void resultsAreIdenticalWithAndWithoutTheMode() {
            Tensor[] plain = compute();
            Tensor[][] recorded = new Tensor[1][];
            record(true, () -> recorded[0] = compute());
            for (int i = 0; i < plain.length; i++) {
                assertEquals(plain[i].dtype(), recorded[0][i].dtype());
                assertArrayEquals(plain[i].shape(), recorded[0][i].shape());
                assertEquals(
                        TensorHash.of(plain[i], HashFn.BITS),
                        TensorHash.of(recorded[0][i], HashFn.BITS),
                        "output " + i);
                assertArrayEquals(plain[i].toDoubleArray(), recorded[0][i].toDoubleArray(), 0.0);
            }
        }

        @Test
        void viewsStillShareStorage() {
            Tensor[] t = new Tensor[1];
            record(true, () -> t[0] = X.t());
            assertSame(X.impl().storage(), t[0].impl().storage());
        }
    }

    @Nested
    class Scopes {
        @Test
        void closesWhenTheBodyThrows() {
            DebugMode[] mode = new DebugMode[1];
            var e = assertThrows(IllegalStateException.class, () -> {
                try (DebugMode dm = DebugMode.open(false)) {
                    mode[0] = dm;
                    X.neg();
                    throw new IllegalStateException("boom");
                }
            });
            assertEquals("boom", e.getMessage());
            X.abs();
            assertEquals(List.of("aten::neg"), ops(mode[0]));
            // The stack is clean: a new mode records only its own op and closes in order.
            assertEquals(List.of("aten::exp"), ops(record(false, () -> X.exp())));
        }

        @Test
        void anOpThatThrowsIsRecordedWithoutOutput() {
            Tensor v = Torch.ones(3), bad = Torch.ones(4, 5);
            DebugMode dm = record(false, () -> {
                assertThrows(TorchException.class, () -> v.matmul(bad));
                X.neg();
            });
            List<DebugRecord> r = dm.records();
            assertEquals(List.of("aten::matmul", "aten::unsqueeze", "aten::mm", "aten::neg"), ops(dm));
            assertFalse(r.get(0).returned());
            assertTrue(r.get(1).returned());
            assertFalse(r.get(2).returned());
            assertNull(r.get(2).output());
            assertEquals(List.of(), r.get(2).outputs());
            assertEquals(1, r.get(3).depth(), "depth restored after the throw");
            assertEquals(
                    "    aten::matmul(t: f32[3], t: f32[4, 5])",
                    dm.log().lines().findFirst().orElseThrow());
        }

        @Test
        void nestedModesEachRecordWhatRunsWhileTheyAreOpen() {
            DebugMode outer, inner;
            try (DebugMode o = DebugMode.open(false)) {
                outer = o;
                X.neg();
                try (DebugMode i = DebugMode.open(true)) {
                    inner = i;
                    Torch.ones(3).matmul(Torch.ones(3, 2));
                }
                X.exp();
            }
            assertEquals(
                    List.of(
                            "aten::neg",
                            "aten::full",
                            "aten::full",
                            "aten::matmul",
                            "aten::unsqueeze",
                            "aten::mm",
                            "aten::squeeze.dims",
                            "aten::exp"),
                    ops(outer));
            assertEquals(
                    List.of(
                            "aten::full",
                            "aten::full",
                            "aten::matmul",
                            "aten::unsqueeze",
                            "aten::mm",
                            "aten::squeeze.dims"),
                    ops(inner));
            assertEquals(
                    List.of(1, 1, 1, 2, 2, 2),
                    inner.records().stream().map(DebugRecord::depth).toList());
            assertTrue(inner.records().get(3).annotation() != null);
            assertTrue(outer.records().stream().allMatch(r -> r.annotation() == null), "the outer mode does not hash");
        }

        @Test
        void modesCloseInnermostFirst() {
            DebugMode outer = DebugMode.open(false);
            DebugMode inner = DebugMode.open(false);
            var e = assertThrows(IllegalStateException.class, outer::close);
            assertTrue(e.getMessage().contains("out of order"), e.getMessage());
            inner.close();
            outer.close();
            outer.close(); // idempotent
            X.neg();
            assertEquals(List.of(), outer.records());
        }

        @Test
        void otherThreadsOpsAreNotRecorded() throws InterruptedException {
            DebugMode dm = DebugMode.open(false);
            try {
                Thread t = new Thread(() -> X.abs());
                t.start();
                t.join();
                X.neg();
                RuntimeException[] fromOther = new RuntimeException[1];
                Thread closer = new Thread(() -> {
                    try {
                        dm.close();
                    } catch (RuntimeException e) {
                        fromOther[0] = e;
                    }
                });
                closer.start();
                closer.join();
                assertTrue(fromOther[0] instanceof IllegalStateException, String.valueOf(fromOther[0]));
            } finally {
                dm.close();
            }
            assertEquals(List.of("aten::neg"), ops(dm));
        }

        @Test
        void hashRegionOverridesTheModeAndEnds() {
            DebugMode dm;
            try (DebugMode d = DebugMode.open(true)) {
                dm = d;
                try (var _ = DebugMode.logTensorHashes(HashFn.NORM, false)) {
                    X.neg();
                }
                X.neg();
            }
            List<DebugRecord> r = dm.records();
            assertEquals("{'hash': 21.0}", r.get(0).annotation());
            assertEquals(HashFn.BITS, r.get(1).outputs().get(0).hash().fn());
            assertNotEquals(null, r.get(1).inputs().get(0).hash());
        }

        @Test
        void hashRegionsCloseInOrder() {
            var a = DebugMode.logTensorHashes(HashFn.NORM, false);
            var b = DebugMode.logTensorHashes(HashFn.BITS, false);
            assertThrows(IllegalStateException.class, a::close);
            b.close();
            a.close();
            a.close();
            DebugMode dm = record(false, () -> X.neg());
            assertNull(dm.records().get(0).annotation(), "no region left open");
        }
    }
}
