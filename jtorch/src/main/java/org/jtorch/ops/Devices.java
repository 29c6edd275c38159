package org.jtorch.ops;

import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/** The device an op runs on, from its tensor arguments. */
public final class Devices {
    private Devices() {}

    /**
     * The common device of the tensor arguments. A zero-dim CPU tensor may join tensors of another device (it acts as a
     * scalar), as in PyTorch.
     */
    public static Device common(String op, Object... args) {
        Device found = null;
        boolean foundCpuScalarOnly = false;
        for (Object a : args) {
            if (a instanceof Tensor t) {
                Device d = t.device();
                boolean cpuScalar = d == Device.CPU && t.dim() == 0;
                if (found == null) {
                    found = d;
                    foundCpuScalarOnly = cpuScalar;
                } else if (d != found) {
                    if (cpuScalar) continue;
                    if (foundCpuScalarOnly) {
                        found = d;
                        foundCpuScalarOnly = false;
                        continue;
                    }
                    throw new TorchException(
                            op + ": Expected all tensors to be on the same device, but found at least two devices, "
                                    + found + " and " + d + "!");
                }
            } else if (a instanceof Tensor[] ts) {
                Device d = common(op, (Object[]) ts);
                if (found == null) found = d;
                else if (d != found) {
                    throw new TorchException(
                            op + ": Expected all tensors to be on the same device, but found at least two devices, "
                                    + found + " and " + d + "!");
                }
            }
        }
        return found == null ? Device.CPU : found;
    }
}
