package org.jtorch.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JTorch → PyTorch → JTorch with a real PyTorch ({@code /usr/bin/python3} with torch; skipped where it is missing —
 * {@link SerializationGoldenTest#savesBackTheBytesPyTorchWrote} checks the same direction without Python). JTorch saves
 * checkpoints of every shape the issue names; {@code src/test/python/check_jtorch_pt.py} loads each with
 * {@code weights_only=True}, describes what it got and saves it again with {@code torch.save}; the description must
 * match what JTorch saved, and JTorch must load PyTorch's re-save to the same thing.
 */
class SerializationPythonTest {
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    @BeforeAll
    static void needsPyTorch() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(PYTHON), "no /usr/bin/python3");
        Process p = new ProcessBuilder(PYTHON.toString(), "-c", "import torch")
                .redirectErrorStream(true)
                .start();
        Assumptions.assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "/usr/bin/python3 has no torch");
    }

    static Map<String, Object> cases() {
        Map<String, Object> cases = new LinkedHashMap<>();
        Map<String, Object> dtypes = new LinkedHashMap<>();
        double[] values = {0, -0.0, 1.5, -2.25, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 3e-5};
        for (DType d : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16}) {
            dtypes.put(d.pyName(), Torch.tensor(values).to(d).reshape(2, 4));
        }
        dtypes.put("int64", Torch.tensor(new long[] {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE}));
        dtypes.put("int32", Torch.tensor(new int[] {0, -7, Integer.MAX_VALUE, Integer.MIN_VALUE}));
        dtypes.put("int16", Torch.tensor(new long[] {0, -1, 32767, -32768}).to(DType.INT16));
        dtypes.put("int8", Torch.tensor(new long[] {0, -1, 127, -128}).to(DType.INT8));
        dtypes.put("uint8", Torch.tensor(new long[] {0, 1, 255}).to(DType.UINT8));
        dtypes.put("bool", Torch.tensor(new boolean[] {true, false, true}));
        dtypes.put("complex64", Torch.tensor(new double[] {1, 2, -0.5, -1}).to(DType.COMPLEX64));
        dtypes.put("complex128", Torch.tensor(new double[] {3, -4}).to(DType.COMPLEX128));
        dtypes.put("scalar", Torch.scalarTensor(7.5));
        dtypes.put("empty", Torch.zeros(0, 3));
        cases.put("dtypes", dtypes);

        Tensor x = Torch.arange(0, 24, 1, DType.FLOAT32).reshape(2, 3, 4);
        Map<String, Object> views = new LinkedHashMap<>();
        views.put("x", x);
        views.put("slice", x.select(0, 1).narrow(1, 1, 2));
        views.put("transposed", x.transpose(0, 2));
        views.put("expanded", Torch.tensor(new float[] {1, 2}).expand(3, 2));
        views.put("strided", x.slice(2, 0L, null, 3));
        views.put("grad", Torch.tensor(new float[] {1, 2}).requiresGrad(true));
        cases.put("views", views);

        PyOrderedDict model = new PyOrderedDict();
        Tensor w = Torch.arange(0, 6, 1, DType.FLOAT32).reshape(2, 3);
        model.put("embed.weight", w);
        model.put("head.weight", w); // tied
        model.put("head.bias", Torch.zeros(2));
        model.put("bn.num_batches_tracked", Torch.scalarTensor(3L, DType.INT64));
        PyOrderedDict meta = new PyOrderedDict();
        meta.put("", new LinkedHashMap<>(Map.of("version", 1L)));
        model.attributes().put("_metadata", meta);
        Map<String, Object> group = new LinkedHashMap<>();
        group.put("lr", 0.001);
        group.put("betas", PyTuple.of(0.9, 0.999));
        group.put("amsgrad", false);
        group.put("foreach", null);
        group.put("params", new ArrayList<>(List.of(0L, 1L)));
        Map<Object, Object> state = new LinkedHashMap<>();
        state.put(0L, new LinkedHashMap<>(Map.of("step", Torch.scalarTensor(1.0), "exp_avg", Torch.ones(2, 3))));
        Map<String, Object> optim = new LinkedHashMap<>();
        optim.put("state", state);
        optim.put("param_groups", new ArrayList<>(List.of(group)));
        Map<String, Object> checkpoint = new LinkedHashMap<>();
        checkpoint.put("epoch", 3L);
        checkpoint.put("model", model);
        checkpoint.put("optim", optim);
        checkpoint.put("loss", 0.25);
        cases.put("checkpoint", checkpoint);

        Map<Object, Object> containers = new LinkedHashMap<>();
        containers.put(
                "ints",
                new ArrayList<>(
                        List.of(0L, 255L, 256L, 65536L, -1L, 1L << 40, Long.MIN_VALUE, BigInteger.TWO.pow(70))));
        containers.put("floats", new ArrayList<>(List.of(0.5, -0.0, Double.NaN, 1e300)));
        containers.put("strings", new ArrayList<>(List.of("", "ünïcødé ✓", "x".repeat(300))));
        containers.put("tuple", PyTuple.of(1L, PyTuple.of(2L, PyTuple.of()), "t"));
        containers.put("bytes", new byte[] {0, 1, (byte) 0xff});
        containers.put("set", new LinkedHashSet<>(List.of(1L, 2L, 3L)));
        containers.put("complex", new PyComplex(1.5, -2));
        containers.put("dtype", DType.BFLOAT16);
        containers.put("device", Device.CPU);
        containers.put(7L, "int key");
        containers.put(PyTuple.of(1L, "t"), "tuple key");
        containers.put(
                "many",
                new ArrayList<>(
                        java.util.stream.LongStream.range(0, 2500).boxed().toList()));
        containers.put("none", null);
        containers.put("meta", Torch.empty(new long[] {2, 3}, DType.FLOAT16, Device.META));
        cases.put("containers", containers);
        return cases;
    }

    @Test
    void pyTorchLoadsWhatJTorchSavesAndJTorchLoadsPyTorchsResave(@TempDir Path dir) throws Exception {
        Map<String, Object> cases = cases();
        for (var c : cases.entrySet()) Serialization.save(c.getValue(), dir.resolve(c.getKey() + ".pt"));
        Path script = Path.of("src/test/python/check_jtorch_pt.py").toAbsolutePath();
        Process p = new ProcessBuilder(PYTHON.toString(), script.toString(), dir.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "python timed out");
        List<String> ok = out.lines().filter(l -> l.startsWith("OK ")).toList();
        assertEquals(cases.size(), ok.size(), out);
        for (var c : cases.entrySet()) {
            Object described = PtDescription.read(dir.resolve(c.getKey() + ".py.json"));
            PtDescription.assertMatches(described, c.getValue());
            Object back = Serialization.load(dir.resolve(c.getKey() + ".resaved.pt"));
            PtDescription.assertMatches(described, back);
        }
        System.out.println(out.strip());
    }

    @Test
    void pyTorchLoadsMappedAndMetaLoadsResavedByJTorch(@TempDir Path dir) throws IOException, InterruptedException {
        Path src = SerializationGoldenTest.fixture("checkpoint.pt");
        Serialization.save(Serialization.load(src, LoadOptions.defaults().mmap(true)), dir.resolve("from_mmap.pt"));
        Path script = Path.of("src/test/python/check_jtorch_pt.py").toAbsolutePath();
        Process p = new ProcessBuilder(PYTHON.toString(), script.toString(), dir.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS));
        assertTrue(out.contains("OK from_mmap"), out);
        PtDescription.assertMatches(
                PtDescription.read(SerializationGoldenTest.fixture("checkpoint.json")),
                Serialization.load(dir.resolve("from_mmap.resaved.pt")));
    }
}
