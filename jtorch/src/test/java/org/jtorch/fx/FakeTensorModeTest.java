package org.jtorch.fx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.DataDependentOutputException;
import org.jtorch.Device;
import org.jtorch.DynamicOutputShapeException;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.io.LoadOptions;
import org.jtorch.io.Serialization;
import org.jtorch.library.CustomOp;
import org.jtorch.library.Library;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FakeTensorMode}: metadata without data, against the same code run on real tensors. */
class FakeTensorModeTest {
    private static Tensor x() {
        return Torch.arange(0, 24, 1, DType.FLOAT32).view(4, 6);
    }

    private static void assertSameMetadata(Tensor real, Tensor fake) {
        assertTrue(FakeTensorMode.isFake(fake), "fake");
        assertArrayEquals(real.shape(), fake.shape(), "shape");
        assertArrayEquals(real.stride(), fake.stride(), "strides");
        assertEquals(real.storageOffset(), fake.storageOffset(), "storage offset");
        assertEquals(real.dtype(), fake.dtype(), "dtype");
        assertEquals(real.device(), fake.device(), "device");
        assertEquals(real.requiresGrad(), fake.requiresGrad(), "requires grad");
    }

    @Test
    void fromTensorCopiesMetadataAndKeepsStorageSharing() {
        Tensor x = x();
        Tensor y = x.t().narrow(0, 1, 3);
        Tensor other = x();
        try (FakeTensorMode mode = FakeTensorMode.open()) {
            Tensor fx = mode.fromTensor(x);
            Tensor fy = mode.fromTensor(y);
            assertSameMetadata(x, fx);
            assertSameMetadata(y, fy);
            assertSame(fx, mode.fromTensor(x), "one fake per real tensor");
            assertSame(fx.untypedStorage(), fy.untypedStorage(), "a view's fake shares its base's fake storage");
            assertSame(mode.fromTensor(y.viewBase()), fy.viewBase(), "the fake of the base is the base of the fake");
            assertNotSame(fx.untypedStorage(), mode.fromTensor(other).untypedStorage());
            assertFalse(fx.isMeta(), "a fake CPU tensor is not a meta tensor");
        }
    }

    @Test
    void opsPropagateEagersMetadataAndViewsShareTheFakeStorage() {
        Tensor w = Torch.randn(6, 3).requiresGrad(true);
        java.util.function.Function<Tensor, Tensor[]> f = in -> {
            Tensor h = F.softmax(in.matmul(w).relu(), 1);
            Tensor v = h.t().unsqueeze(0);
            return new Tensor[] {h, v, h.sum(), in.add_(1.0)};
        };
        Tensor[] eager = f.apply(x());
        try (FakeTensorMode mode = FakeTensorMode.open()) {
            Tensor fx = mode.fromTensor(x());
            Tensor[] fake = f.apply(fx);
            for (int i = 0; i < eager.length; i++) assertSameMetadata(eager[i], fake[i]);
            assertSame(
                    fake[0].untypedStorage(), fake[1].untypedStorage(), "a view of a fake tensor shares its storage");
            assertSame(fx, fake[3], "an in-place op returns the tensor it writes");
            assertTrue(fake[0].gradFn() != null, "autograd records on fake tensors");
        }
    }

    @Test
    void realTensorsEnteringAndFactoriesInsideTheModeAreFake() {
        Tensor real = x();
        try (var _ = FakeTensorMode.open()) {
            Tensor sum = real.add(Torch.ones(4, 6).to(DType.FLOAT64));
            assertTrue(FakeTensorMode.isFake(sum));
            assertEquals(DType.FLOAT64, sum.dtype());
            assertTrue(FakeTensorMode.isFake(Torch.zeros(2, 3)));
        }
        assertFalse(FakeTensorMode.isFake(real));
        assertArrayEquals(x().toDoubleArray(), real.toDoubleArray(), "the real input is untouched");
    }

    @Test
    void dataReadsAndDataDependentShapesRaiseNamingTheRead() {
        try (FakeTensorMode mode = FakeTensorMode.open()) {
            Tensor fx = mode.fromTensor(x());
            var item = assertThrows(
                    DataDependentOutputException.class, () -> fx.sum().item());
            assertEquals("item", item.op());
            assertTrue(item.getMessage().startsWith("item()"), item.getMessage());
            var array = assertThrows(DataDependentOutputException.class, fx::toDoubleArray);
            assertEquals("toDoubleArray", array.op());
            var nonzero = assertThrows(DynamicOutputShapeException.class, () -> Torch.nonzero(fx));
            assertEquals("aten::nonzero", nonzero.op());
        }
    }

    @Test
    void aFakeTensorOutsideTheModeIsRefusedBeforeAnyKernel() {
        Tensor fx;
        try (FakeTensorMode mode = FakeTensorMode.open()) {
            fx = mode.fromTensor(x());
        }
        Tensor fake = fx;
        var e = assertThrows(TorchException.class, () -> fake.add(fake));
        assertTrue(e.getMessage().contains("FakeTensorMode"), e.getMessage());
    }

    @Test
    void customOpsRunTheirRegisteredFake() {
        CustomOp op = Library.customOp("fxfake::twice_rows", "(Tensor x) -> Tensor", args -> {
                    Tensor t = (Tensor) args[0];
                    return Torch.cat(List.of(t, t), 0);
                })
                .registerFake(args -> {
                    Tensor t = (Tensor) args[0];
                    return Torch.empty(2 * t.size(0), t.size(1)).to(t.dtype());
                });
        Tensor eager = (Tensor) op.call(x());
        try (FakeTensorMode mode = FakeTensorMode.open()) {
            assertSameMetadata(eager, (Tensor) op.call(mode.fromTensor(x())));
        }
    }

    @Test
    void loadingUnderTheModeGivesFakeTensorsSharingStorageAsSaved(@TempDir Path dir) throws Exception {
        Tensor base = x();
        Map<String, Tensor> saved = new LinkedHashMap<>();
        saved.put("base", base);
        saved.put("row", base.select(0, 2));
        saved.put("columns", base.t().narrow(0, 1, 2));
        saved.put("alone", Torch.ones(3).to(DType.INT64));
        Path file = dir.resolve("shared.pt");
        Serialization.save(saved, file);
        @SuppressWarnings("unchecked")
        Map<String, Tensor> real = (Map<String, Tensor>) Serialization.load(file);
        Map<String, Tensor> fake;
        Map<String, Tensor> fakeMeta;
        try (var _ = FakeTensorMode.open()) {
            fake = loaded(Serialization.load(file));
            fakeMeta = loaded(Serialization.load(file, LoadOptions.defaults().mapLocation(Device.META)));
        }
        for (String k : saved.keySet()) {
            assertSameMetadata(real.get(k), fake.get(k));
            assertEquals(Device.META, fakeMeta.get(k).device());
            assertTrue(FakeTensorMode.isFake(fakeMeta.get(k)));
        }
        for (Map<String, Tensor> m : List.of(fake, fakeMeta)) {
            assertSame(m.get("base").untypedStorage(), m.get("row").untypedStorage());
            assertSame(m.get("base").untypedStorage(), m.get("columns").untypedStorage());
            assertNotSame(m.get("base").untypedStorage(), m.get("alone").untypedStorage());
        }
        assertTrue(Files.size(file) > 0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Tensor> loaded(Object o) {
        return (Map<String, Tensor>) o;
    }

    @Test
    void makeFxOnFakeInputsRecordsEagersMetadata() {
        java.util.function.Function<Tensor[], Tensor[]> f =
                in -> new Tensor[] {F.softmax(in[0].matmul(in[1]).relu(), 1)};
        Tensor w = Torch.randn(6, 3);
        GraphModule real = Fx.makeFx(f, x(), w);
        GraphModule fake;
        try (FakeTensorMode mode = FakeTensorMode.open()) {
            fake = Fx.makeFx(f, mode.fromTensor(x()), mode.fromTensor(w));
        }
        assertEquals(real.printReadable(), fake.printReadable());
        List<Node> r = real.graph().nodes(), k = fake.graph().nodes();
        for (int i = 0; i < r.size(); i++)
            assertEquals(r.get(i).meta(), k.get(i).meta(), "metadata of " + r.get(i));
    }
}
