package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.LinAlgException;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.Warnings;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.testing.IndexingOpDb;
import org.jtorch.testing.OpDb;
import org.jtorch.testing.PointwiseTable;
import org.jtorch.testing.SampleInputs;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The generic sweep over {@link OpDb}: for each op × dtype × sample, the meta device gives the output structure,
 * shapes, strides and dtypes the CPU gives, refuses exactly what the CPU refuses with the same exception class, and a
 * non-contiguous sample gives the values of its contiguous copy. An op that throws anything but PyTorch's error classes
 * has crashed. Coverage tests make a new op (or a new op family) without a table entry fail the build.
 */
class OpDbTest {
    /** The exception classes of PyTorch's error split; anything else thrown by an op is a crash. */
    private static final Set<Class<?>> DOCUMENTED = Set.of(
            TorchException.class,
            TorchTypeException.class,
            IndexOutOfBoundsException.class,
            IllegalArgumentException.class,
            UnsupportedOperationException.class,
            LinAlgException.class);

    /**
     * Errors that depend on values, which the meta device cannot see, per op: the message fragments. A CPU refusal with
     * one of them is not asked of the meta device.
     */
    private static final Map<String, List<String>> DATA_DEPENDENT_ERRORS = Map.ofEntries(
            // the 0-d value tensor's value must fit self's dtype, as ATen's kernel checks
            Map.entry("masked_fill.Tensor", List.of("cannot be converted to type")),
            // LAPACK's info: a matrix that is not positive-definite, or singular
            Map.entry("linalg_cholesky", List.of("is not positive-definite")),
            Map.entry("linalg_inv", List.of("the input matrix is singular")),
            Map.entry("linalg_solve", List.of("the input matrix is singular")),
            Map.entry("linalg_lu_factor", List.of("is zero and using it on lu_solve")),
            // probabilities outside [0, 1]
            Map.entry("bernoulli", List.of("Expected p_in >= 0 && p_in <= 1")),
            Map.entry("bernoulli.Tensor", List.of("Expected p_in >= 0 && p_in <= 1")),
            // negative, infinite or NaN weights, or a row summing to zero
            Map.entry("multinomial", List.of("probability tensor contains either", "invalid multinomial distribution")),
            // a negative element of a std tensor (a float std is checked by the meta rule)
            Map.entry("normal.float_Tensor", List.of("normal expects all elements of std >= 0.0")),
            Map.entry("normal.Tensor_Tensor", List.of("normal expects all elements of std >= 0.0")),
            // negative repeats, or repeats that do not sum to output_size
            Map.entry(
                    "_repeat_interleave_along",
                    List.of("repeats can not be negative", "allocated size does not match")),
            Map.entry("repeat_interleave.Tensor", List.of("repeats can not be negative")),
            Map.entry("repeat_interleave.self_Tensor", List.of("repeats can not be negative")),
            // class indices outside [0, num_classes)
            Map.entry("one_hot", List.of("Class values must be")),
            // quantiles outside [0, 1] in a q tensor
            Map.entry("quantile", List.of("q values must be in the range")),
            Map.entry("nanquantile", List.of("q values must be in the range")),
            // negative weights
            Map.entry("cov", List.of("cannot be negative", "weights sum to zero")),
            // sorter entries outside [0, len)
            Map.entry("searchsorted.Tensor", List.of("sorter index out of range")),
            Map.entry("searchsorted.Scalar", List.of("sorter index out of range")));

    /** Which samples of an op have a data-dependent output shape, and how the meta device refuses them. */
    private record DataDependentShape(Class<? extends RuntimeException> onMeta, Predicate<Object[]> applies) {}

    private static DataDependentShape always(Class<? extends RuntimeException> onMeta) {
        return new DataDependentShape(onMeta, args -> true);
    }

    /**
     * Ops (and, by their CPU arguments, samples) whose output shape depends on the values: the CPU computes it, the
     * meta device must refuse with the given class, as PyTorch's meta tensors do; where the CPU refuses, meta may
     * refuse with that class before checking anything else. Besides these, the entries
     * {@link IndexingOpDb#refusesMetaForData} names (nonzero, masked_select, masks as indices...).
     */
    private static final Map<String, DataDependentShape> DATA_DEPENDENT_SHAPES = Map.of(
            // no meta kernel in ATen: the number of groups or bins is the data's
            "_unique2", always(UnsupportedOperationException.class),
            "unique_dim", always(UnsupportedOperationException.class),
            "unique_consecutive", always(UnsupportedOperationException.class),
            "bincount", always(UnsupportedOperationException.class),
            // the length is the sum of the repeats unless output_size is given (ATen's meta rule: RuntimeError);
            // no repeats at all make an empty result whatever the data
            "repeat_interleave.Tensor",
                    new DataDependentShape(
                            TorchException.class, args -> args[1] == null && ((Tensor) args[0]).numel() > 0),
            "repeat_interleave.self_Tensor", new DataDependentShape(TorchException.class, args -> args[3] == null),
            // num_classes = -1 is one more than the largest index
            "one_hot", new DataDependentShape(TorchException.class, args -> (Long) args[1] == -1));

    /** The class the meta device must refuse this sample with because its shape is the data's, or null. */
    private static Class<? extends RuntimeException> metaNeedsData(OpDb.Entry e, OpDb.Sample s, Object[] cpuArgs) {
        if (IndexingOpDb.refusesMetaForData(e, s)) return UnsupportedOperationException.class;
        DataDependentShape d = DATA_DEPENDENT_SHAPES.get(e.name());
        return d != null && d.applies().test(cpuArgs) ? d.onMeta() : null;
    }

    @TestFactory
    Stream<DynamicTest> metaMatchesCpuAndLayoutDoesNotMatter() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDb.Entry e : OpDb.ALL) {
            for (DType dtype : e.dtypes()) {
                for (OpDb.Sample s : e.samples()) {
                    String name = e.name() + "/" + dtype.pyName() + "/" + s.label();
                    tests.add(DynamicTest.dynamicTest(name, () -> check(e, dtype, s)));
                }
            }
        }
        return tests.stream();
    }

    private static void check(OpDb.Entry e, DType dtype, OpDb.Sample s) {
        SampleInputs cpuInputs = SampleInputs.on(dtype, Device.CPU);
        Object[] cpuArgs = s.args().build(cpuInputs);
        Object[] metaArgs = s.args().build(SampleInputs.on(dtype, Device.META));
        Class<? extends RuntimeException> needsData = metaNeedsData(e, s, cpuArgs);
        Object real;
        try {
            real = callRecordingWarnings(e, cpuArgs);
        } catch (RuntimeException refused) {
            requireDocumented(refused, "CPU");
            String message = String.valueOf(refused.getMessage());
            if (DATA_DEPENDENT_ERRORS.getOrDefault(e.name(), List.of()).stream().anyMatch(message::contains)) {
                Assumptions.abort("data-dependent error, invisible to the meta device: " + message);
            }
            try {
                Object fake = callRecordingWarnings(e, metaArgs);
                fail("meta accepted what CPU refused (" + refused + "), giving " + describe(fake));
            } catch (RuntimeException onMeta) {
                requireDocumented(onMeta, "meta");
                if (onMeta.getClass() != needsData) {
                    assertEquals(
                            refused.getClass(),
                            onMeta.getClass(),
                            "CPU: " + message + "\nmeta: " + onMeta.getMessage());
                }
            }
            return;
        }
        if (needsData != null) {
            RuntimeException onMeta = assertThrows(
                    RuntimeException.class,
                    () -> Dispatcher.call(e.op(), metaArgs),
                    "meta computed a shape that depends on the data: " + describe(real));
            assertEquals(needsData, onMeta.getClass(), "meta refused a data-dependent shape with " + onMeta);
            checkLayoutDoesNotMatter(e, dtype, s, cpuInputs, outputs(real, "CPU"));
            return;
        }
        Object fake;
        try {
            fake = callRecordingWarnings(e, metaArgs);
        } catch (RuntimeException onMeta) {
            throw new AssertionError("meta refused what CPU accepted (" + describe(real) + ")", onMeta);
        }
        Tensor[] r = outputs(real, "CPU"), f = outputs(fake, "meta");
        assertEquals(
                real instanceof Tensor[],
                fake instanceof Tensor[],
                "output structure: " + describe(real) + " vs " + describe(fake));
        assertEquals(r.length, f.length, "number of outputs");
        for (int i = 0; i < r.length; i++) {
            assertEquals(Device.CPU, r[i].device(), "CPU output " + i + " device");
            assertEquals(Device.META, f[i].device(), "meta output " + i + " device");
            assertArrayEquals(r[i].shape(), f[i].shape(), "output " + i + " shape");
            assertArrayEquals(r[i].stride(), f[i].stride(), "output " + i + " strides");
            assertEquals(r[i].dtype(), f[i].dtype(), "output " + i + " dtype");
        }
        checkLayoutDoesNotMatter(e, dtype, s, cpuInputs, r);
    }

    /**
     * A strided sample gives the values of its contiguous copy, unless its op reads storage (not {@code layoutFree}) or
     * draws random numbers (whose values the sweep does not compare).
     */
    private static void checkLayoutDoesNotMatter(
            OpDb.Entry e, DType dtype, OpDb.Sample s, SampleInputs cpuInputs, Tensor[] r) {
        if (!cpuInputs.strided() || !s.layoutFree() || e.op().has(OpDef.Flag.RANDOM)) return;
        Object[] contiguousArgs = s.args().build(SampleInputs.contiguousOnly(dtype));
        Tensor[] c = outputs(Dispatcher.call(e.op(), contiguousArgs), "CPU contiguous");
        assertEquals(r.length, c.length, "number of outputs (contiguous copy)");
        for (int i = 0; i < r.length; i++) assertSameValues(c[i].toDoubleArray(), r[i].toDoubleArray(), "output " + i);
    }

    private static void requireDocumented(RuntimeException e, String device) {
        if (!DOCUMENTED.contains(e.getClass())) throw new AssertionError(device + " crashed instead of refusing", e);
    }

    private static Tensor[] outputs(Object result, String where) {
        if (result instanceof Tensor t) return new Tensor[] {t};
        if (result instanceof Tensor[] ts) return ts;
        throw new AssertionError(where + " returned neither a Tensor nor a Tensor[]: " + result);
    }

    private static String describe(Object result) {
        if (result instanceof Tensor t)
            return "Tensor" + Arrays.toString(t.shape()) + " " + t.dtype().pyName();
        if (result instanceof Tensor[] ts) return "Tensor[" + ts.length + "]";
        return String.valueOf(result);
    }

    /** Exact equality, NaN equal to NaN and -0.0 to 0.0. */
    private static void assertSameValues(double[] expected, double[] got, String what) {
        assertEquals(expected.length, got.length, what + " element count");
        for (int i = 0; i < got.length; i++) {
            assertTrue(
                    expected[i] == got[i] || Double.compare(expected[i], got[i]) == 0,
                    what + ": non-contiguous input gives " + got[i] + " at " + i + ", contiguous gives " + expected[i]);
        }
    }

    // ---- the sweep can fail ----------------------------------------------------------------------------

    private static OpDb.Entry entry(OpDef op) {
        OpDb.Sample transposed = new OpDb.Sample("transposed", in -> new Object[] {in.nc(3, 4)}, true);
        return new OpDb.Entry(op, List.of(DType.FLOAT64), List.of(transposed));
    }

    private static OpDef structured(String name, OpDef.Kernel kernel) {
        return OpDef.Unregistered.structured(
                name + "(Tensor self) -> Tensor",
                args -> {
                    Tensor x = (Tensor) args[0];
                    return Spec.of(x.impl().shapeRef(), x.dtype(), x.device(), null);
                },
                kernel);
    }

    @Test
    void sweepCatchesOpsThatMisbehave() {
        OpDef refusesInKernel = structured("refuses_in_kernel", (args, outs, spec) -> {
            throw new TorchException("the kernel refuses what the meta rule accepted");
        });
        OpDef crashes = structured("crashes", (args, outs, spec) -> {
            throw new ArithmeticException("/ by zero");
        });
        OpDef ignoresStrides = structured("ignores_strides", (args, outs, spec) -> {
            Tensor x = (Tensor) args[0];
            ElementIO io = ElementIO.of(x.dtype());
            for (long i = 0; i < x.numel(); i++) {
                io.setDouble(
                        outs[0].impl().storage().segment(),
                        i,
                        io.getDouble(x.impl().storage().segment(), x.storageOffset() + i));
            }
        });
        OpDef metaDiffers = OpDef.Unregistered.composite("meta_differs(Tensor self) -> Tensor", args -> {
            Tensor x = (Tensor) args[0];
            return x.isMeta() ? ShapeOps.unsqueeze(x, 0) : x;
        });
        // Named as an op whose shape is the data's: meta must refuse it, and with UnsupportedOperationException.
        OpDef metaGuessesShape = OpDef.Unregistered.composite("_unique2(Tensor self) -> Tensor", args -> args[0]);
        OpDef metaRefusesWrongly = OpDef.Unregistered.composite("bincount(Tensor self) -> Tensor", args -> {
            Tensor x = (Tensor) args[0];
            if (x.isMeta()) throw new TorchException("refused with the wrong class");
            return x;
        });
        for (OpDef op :
                List.of(refusesInKernel, crashes, ignoresStrides, metaDiffers, metaGuessesShape, metaRefusesWrongly)) {
            OpDb.Entry e = entry(op);
            assertThrows(
                    AssertionError.class,
                    () -> check(e, DType.FLOAT64, e.samples().get(0)),
                    op.name());
        }
    }

    // ---- coverage ----------------------------------------------------------------------------------------

    @Test
    void everyRegisteredOpHasAnEntryOrIsSweptAsPointwise() {
        Set<OpDef> covered = Collections.newSetFromMap(new IdentityHashMap<>());
        for (OpDb.Entry e : OpDb.ALL) covered.add(e.op());
        covered.addAll(PointwiseTable.ops());
        Set<String> missing = new TreeSet<>();
        for (OpDef op : OpRegistry.all()) if (!covered.contains(op)) missing.add(op.qualifiedName());
        assertTrue(missing.isEmpty(), "ops without an OpDb entry: " + missing);
    }

    @Test
    void entriesAreUniqueAndNameRegisteredOps() {
        Set<String> names = new TreeSet<>();
        for (OpDb.Entry e : OpDb.ALL) {
            assertTrue(OpRegistry.lookup(e.op().qualifiedName()) == e.op(), e.name() + " is not a registered op");
            assertTrue(names.add(e.name()), "two entries for " + e.name());
            Set<String> labels = new TreeSet<>();
            for (OpDb.Sample s : e.samples())
                assertTrue(labels.add(s.label()), e.name() + ": label twice: " + s.label());
        }
    }

    @Test
    void dataDependentListsNameEntries() {
        Set<String> names = new TreeSet<>();
        for (OpDb.Entry e : OpDb.ALL) names.add(e.name());
        Set<String> listed = new TreeSet<>(DATA_DEPENDENT_ERRORS.keySet());
        listed.addAll(DATA_DEPENDENT_SHAPES.keySet());
        listed.addAll(IndexingOpDb.DATA_DEPENDENT_SHAPES);
        listed.removeAll(names);
        assertTrue(listed.isEmpty(), "data-dependent lists name ops without an entry: " + listed);
    }

    /** A class declaring ops outside the registry's family list would register them only once something used it. */
    @Test
    void everyClassDeclaringOpsIsARegisteredFamily() throws IOException {
        Path dir = Path.of("src/main/java/org/jtorch");
        assertTrue(
                Files.isDirectory(dir), "expected the sources at " + dir.toAbsolutePath() + " (tests run in jtorch/)");
        Set<String> listed = new TreeSet<>(OpRegistry.familyNames());
        Set<String> unlisted = new TreeSet<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String cls = p.getFileName().toString().replace(".java", "");
                String src = Files.readString(p);
                boolean declares = src.contains("static final OpDef ") || src.contains("static final Lifted ");
                if (declares && !listed.contains(cls))
                    unlisted.add(dir.relativize(p).toString());
            }
        }
        assertTrue(unlisted.isEmpty(), "classes declaring ops missing from OpRegistry's families: " + unlisted);
    }

    /**
     * Runs a sample with its warnings recorded rather than printed (PyTorch's own, such as a uint8 condition's
     * deprecation): the sweep checks values and metadata; the golden tests check the warnings.
     */
    private static Object callRecordingWarnings(OpDb.Entry e, Object[] args) {
        try (var _ = Warnings.catchWarnings()) {
            return Dispatcher.call(e.op(), args);
        }
    }
}
