package org.jtorch.ops;

import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.dispatch.Spec;
import org.jtorch.storage.TensorImpl;

/**
 * Moving a tensor between devices ({@code Tensor.to(device)}, {@code cpu()}): one structured op whose kernel serves
 * every device, since it only moves data through the backends' copy functions (device to CPU, CPU to device; device to
 * device through the CPU). Its gradient moves the output gradient back to the source device, so it composes with
 * autograd at any order.
 */
public final class DeviceCopyOps {
    private DeviceCopyOps() {}

    /**
     * {@code _to_device(self, device)}: a copy of {@code self} on {@code device} (PyTorch does this in
     * {@code _to_copy(..., device=)}). A device type without an index means the backend's current device.
     */
    public static final OpDef TO_DEVICE = OpDef.structured(
                    "_to_device(Tensor self, Device device) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        Device target = resolve((Device) args[1]);
                        if (self.device() == Device.META && target != Device.META) {
                            throw new UnsupportedOperationException("Cannot copy out of meta tensor; no data!");
                        }
                        if (target != Device.CPU && target != Device.META) Backends.forDevice(target);
                        return Spec.of(self.impl().shapeRef(), self.dtype(), target, null);
                    },
                    (args, outs, spec) -> copyAcross((Tensor) args[0], outs[0]))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {to(g[0], ((Tensor) a[0]).device())})
            .deriveJvp(Jvps::linear)
            .vmapFallsBack("a device copy: its meta rule refuses the meta inputs that a rule's shape check uses");

    static {
        Backends.registerDeviceGeneric(TO_DEVICE);
    }

    /** An index-less backend device is its current device, as in PyTorch. */
    private static Device resolve(Device d) {
        if (d.hasIndex() || d == Device.CPU || d == Device.META) return d;
        return Device.of(d.type(), Backends.currentIndex(d.type()));
    }

    /**
     * Copies {@code src} into {@code dst} of the same shape, whatever devices they are on, through the backends' copy
     * functions (no op of either device runs): the device-generic kernel of {@link #TO_DEVICE}, and how a custom op's
     * results reach the outputs the dispatcher allocated.
     */
    public static void copyAcross(Tensor src, Tensor dst) {
        Device from = src.device(), to = dst.device();
        if (from == Device.CPU && to == Device.CPU) {
            CopyOps.convert(src, dst);
            return;
        }
        if (to == Device.CPU) {
            Backends.forDevice(from).copyToCpu(src, dst);
            return;
        }
        Tensor host = src;
        if (from != Device.CPU) {
            host = Tensor.of(TensorImpl.empty(src.impl().shapeRef(), src.dtype()));
            Backends.forDevice(from).copyToCpu(src, host);
        } else if (!src.isContiguous()) {
            host = Tensor.of(TensorImpl.empty(src.impl().shapeRef(), src.dtype()));
            CopyOps.convert(src, host);
        }
        Backends.forDevice(to).copyFromCpu(host, dst);
    }

    /** {@code self.to(device)}: {@code self} itself when it is already there, else a copy on {@code device}. */
    public static Tensor to(Tensor self, Device device) {
        Device target = resolve(device);
        if (self.device() == target) return self;
        return TO_DEVICE.call1(self, target);
    }

    /** {@code self.cpu()}. */
    public static Tensor cpu(Tensor self) {
        return to(self, Device.CPU);
    }
}
