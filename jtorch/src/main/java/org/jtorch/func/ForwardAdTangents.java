package org.jtorch.func;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.DualLevel;
import org.jtorch.autograd.ForwardAD;
import org.jtorch.autograd.UnpackedDual;

/**
 * {@code jvp} by forward-mode AD, as {@code torch.func.jvp} does it: a fresh dual level, each primal made dual with its
 * tangent, one evaluation of f, the output tangents unpacked. One pass, any floating or complex dtype.
 */
final class ForwardAdTangents implements TangentPropagation {
    @Override
    public JvpResult jvp(Function<Object[], Object> f, Object[] primals, Object[] tangents, boolean hasAux) {
        try (DualLevel level = ForwardAD.dualLevel()) {
            List<Object> tangentLeaves = PyTree.leaves(tangents);
            List<Object> duals = new ArrayList<>();
            int i = 0;
            for (Object p : PyTree.leaves(primals))
                duals.add(ForwardAD.makeDual((Tensor) p, (Tensor) tangentLeaves.get(i++), level));
            Object result = f.apply((Object[]) PyTree.rebuild(primals, duals.iterator()));
            Object output = result, aux = null;
            if (hasAux) {
                if (!(result instanceof Object[] || result instanceof List<?>)
                        || PyTree.children(result).size() != 2) {
                    throw new TorchException(
                            "jvp(f, primals, tangents): output of function f should be a tuple: (output, aux) "
                                    + "if has_aux is True");
                }
                output = PyTree.children(result).get(0);
                aux = PyTree.children(result).get(1);
            }
            List<Object> values = new ArrayList<>(), jvps = new ArrayList<>();
            for (Object leaf : PyTree.leaves(output)) {
                if (!(leaf instanceof Tensor t)) {
                    throw new TorchException(
                            "jvp(f, primals, tangents): Expected f(*primals) to return only tensors, got "
                                    + Vmap.typeName(leaf));
                }
                UnpackedDual unpacked = ForwardAD.unpackDual(t, level);
                values.add(unpacked.primal());
                jvps.add(unpacked.tangent() != null ? unpacked.tangent() : Torch.zerosLike(unpacked.primal()));
            }
            return new JvpResult(
                    PyTree.rebuild(output, values.iterator()), PyTree.rebuild(output, jvps.iterator()), aux);
        }
    }
}
