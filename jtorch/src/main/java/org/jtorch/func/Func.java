package org.jtorch.func;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.nn.Module;

/**
 * {@code torch.func}: composable function transforms. Every transform returns a plain Java function; they nest freely
 * ({@code vmap(grad(f))}, {@code grad(vmap(f))}, {@code jacrev(jacrev(f))}) and never read or write {@code .grad}
 * fields.
 *
 * <pre>{@code
 * // per-sample gradients of a loss over unbatched parameters
 * Function<Object[], Object> perSample = Func.vmap(
 *         Func.grad(args -> loss((Tensor) args[0], (Tensor) args[1], (Tensor) args[2]), GradOptions.defaults()),
 *         VmapOptions.defaults().inDims(null, 0, 0));
 * }</pre>
 */
public final class Func {
    private Func() {}

    /**
     * Where {@code jvp}/{@code jacfwd}/{@code hessian} get their tangents from (reverse mode twice, until forward AD
     * lands).
     */
    private static final TangentPropagation TANGENTS = new ForwardAdTangents();

    // ---- vmap ------------------------------------------------------------------------------------------------

    /** {@code torch.vmap(fn)}: maps {@code fn} over dim 0 of its input; the batch is dim 0 of the result. */
    public static Function<Tensor, Tensor> vmap(Function<Tensor, Tensor> fn) {
        return vmap(fn, 0, 0);
    }

    /** {@code torch.vmap(fn, in_dims=inDim, out_dims=outDim)} for a function of one tensor. */
    public static Function<Tensor, Tensor> vmap(Function<Tensor, Tensor> fn, Integer inDim, Integer outDim) {
        Function<Object[], Object> g = vmap(
                a -> fn.apply((Tensor) a[0]),
                VmapOptions.defaults().inDims(inDim).outDims(outDim));
        return x -> (Tensor) g.apply(new Object[] {x});
    }

    /** {@code torch.vmap(fn, in_dims=(inDim0, inDim1))} for a function of two tensors (null: not mapped). */
    public static BiFunction<Tensor, Tensor, Tensor> vmap(
            BiFunction<Tensor, Tensor, Tensor> fn, Integer inDim0, Integer inDim1) {
        Function<Object[], Object> g = vmap(
                a -> fn.apply((Tensor) a[0], (Tensor) a[1]),
                VmapOptions.defaults().inDims(inDim0, inDim1));
        return (x, y) -> (Tensor) g.apply(new Object[] {x, y});
    }

    /**
     * {@code torch.vmap(fn, in_dims, out_dims, randomness, chunk_size=...)}: {@code fn} takes the positional arguments
     * (tensors, containers of tensors, or other values passed as they are) and returns a tensor or a container of
     * tensors (arrays, lists, maps, records).
     */
    public static Function<Object[], Object> vmap(Function<Object[], Object> fn, VmapOptions options) {
        String name = nameOf(fn);
        return args -> Vmap.call(fn, name, options, args);
    }

    /** {@code torch.vmap(fn, in_dims, out_dims, randomness, chunk_size=chunkSize)}. */
    public static Function<Object[], Object> vmap(
            Function<Object[], Object> fn, Object inDims, Object outDims, Randomness randomness, Integer chunkSize) {
        return vmap(fn, new VmapOptions(inDims, outDims, randomness, chunkSize));
    }

    // ---- grad / vjp -------------------------------------------------------------------------------------------

    /**
     * Options of {@code grad}, {@code grad_and_value}, {@code jacrev} and {@code jacfwd}: argnums (an int, or several →
     * a tuple) and has_aux.
     */
    public record GradOptions(int[] argnums, boolean tuple, boolean hasAux, Integer chunkSize) {
        /** {@code argnums=0, has_aux=False}. */
        public static GradOptions defaults() {
            return new GradOptions(new int[] {0}, false, false, null);
        }

        /** {@code argnums=n}: one gradient. */
        public GradOptions argnums(int n) {
            return new GradOptions(new int[] {n}, false, hasAux, chunkSize);
        }

        /** {@code argnums=(n0, n1, ...)}: an array of gradients, one per entry. */
        public GradOptions argnumsTuple(int... ns) {
            return new GradOptions(ns.clone(), true, hasAux, chunkSize);
        }

        /** {@code has_aux}: the function returns {@code (output, aux)}, and aux is passed through ungraded. */
        public GradOptions hasAux(boolean b) {
            return new GradOptions(argnums, tuple, b, chunkSize);
        }

        /** jacrev's {@code chunk_size}. */
        public GradOptions chunkSize(Integer k) {
            return new GradOptions(argnums, tuple, hasAux, k);
        }
    }

    /** {@code torch.func.grad(fn)} for a function of one tensor returning a 0-d tensor. */
    public static Function<Tensor, Tensor> grad(Function<Tensor, Tensor> fn) {
        Function<Object[], Object> g = grad(a -> fn.apply((Tensor) a[0]), GradOptions.defaults());
        return x -> (Tensor) g.apply(new Object[] {x});
    }

    /** {@code torch.func.grad(fn, argnums=argnums)}: one gradient per argnum (default: the first argument). */
    public static Function<Tensor[], Tensor[]> grad(Function<Tensor[], Tensor> fn, int... argnums) {
        int[] nums = argnums.length == 0 ? new int[] {0} : argnums;
        Function<Object[], Object> g = grad(
                a -> fn.apply(Arrays.copyOf(a, a.length, Tensor[].class)),
                GradOptions.defaults().argnumsTuple(nums));
        return xs -> {
            Object[] r = (Object[]) g.apply(xs.clone());
            return Arrays.copyOf(r, r.length, Tensor[].class);
        };
    }

    /**
     * {@code torch.func.grad(fn, argnums, has_aux)}: the gradient (with {@code hasAux}: an array {@code [grad, aux]}).
     */
    public static Function<Object[], Object> grad(Function<Object[], Object> fn, GradOptions options) {
        Function<Object[], GradAndValue> gv = gradAndValue(fn, options);
        return args -> {
            GradAndValue r = gv.apply(args);
            return options.hasAux() ? new Object[] {r.grad(), r.aux()} : r.grad();
        };
    }

    /** {@code torch.func.grad_and_value(fn)} for a function of one tensor. */
    public static Function<Tensor, GradAndValue> gradAndValue(Function<Tensor, Tensor> fn) {
        Function<Object[], GradAndValue> g = gradAndValue(a -> fn.apply((Tensor) a[0]), GradOptions.defaults());
        return x -> g.apply(new Object[] {x});
    }

    /** {@code torch.func.grad_and_value(fn, argnums, has_aux)}. */
    public static Function<Object[], GradAndValue> gradAndValue(Function<Object[], Object> fn, GradOptions options) {
        return args -> {
            Differentiation.checkArgnums(options.argnums(), args.length, "grad_and_value");
            int[] nums = Differentiation.wrapArgnums(options.argnums(), args.length);
            Differentiation.Traced t = Differentiation.trace(fn, args, nums, options.hasAux(), "grad_and_value");
            Tensor out = Differentiation.scalarOutput(t.output);
            Tensor[] g = t.gradients(List.of(out), null);
            Object grads = regroup(args, nums, g, options.tuple());
            return new GradAndValue(grads, Differentiation.release(out, t.createGraph), t.aux);
        };
    }

    /** {@code torch.func.vjp(fn, primal)}. */
    public static VjpResult vjp(Function<Tensor, Tensor> fn, Tensor primal) {
        return vjp(a -> fn.apply((Tensor) a[0]), new Object[] {primal});
    }

    /**
     * {@code torch.func.vjp(fn, *primals)}: the output and a function from cotangents to one gradient per primal
     * tensor. The primals are an array, not varargs, so that a lambda and one tensor select {@link #vjp(Function,
     * Tensor)} alone, not either overload (the primals of {@code jvp} are arrays too).
     */
    public static VjpResult vjp(Function<Object[], Object> fn, Object[] primals) {
        return vjp(fn, false, primals);
    }

    /** {@code torch.func.vjp(fn, *primals, has_aux=True)}: fn returns {@code (output, aux)}. */
    public static VjpResult vjpWithAux(Function<Object[], Object> fn, Object... primals) {
        return vjp(fn, true, primals);
    }

    private static VjpResult vjp(Function<Object[], Object> fn, boolean hasAux, Object[] primals) {
        int[] all = new int[primals.length];
        for (int i = 0; i < all.length; i++) all[i] = i;
        Differentiation.Traced t = Differentiation.trace(fn, primals, all, hasAux, "vjp");
        List<Tensor> outs = tensorLeaves(t.output, "vjp");
        Function<Object, Tensor[]> vjpFn = cotangents -> {
            List<Object> cts = PyTree.leaves(cotangents);
            if (cts.size() != outs.size()) {
                throw new TorchException(
                        "Expected pytree structure of cotangents to be the same as pytree structure of outputs "
                                + "to the function: got " + cts.size() + " cotangents for " + outs.size() + " outputs");
            }
            List<Tensor> seeds = new ArrayList<>();
            for (int i = 0; i < cts.size(); i++) {
                if (!(cts.get(i) instanceof Tensor c)
                        || !Arrays.equals(
                                c.impl().shapeRef(), outs.get(i).impl().shapeRef())) {
                    throw new TorchException("Mismatch in shape: grad_output[" + i + "] has a shape of "
                            + (cts.get(i) instanceof Tensor c ? Arrays.toString(c.shape()) : Vmap.typeName(cts.get(i)))
                            + " and output[" + i + "] has a shape of "
                            + Arrays.toString(outs.get(i).shape()) + ".");
                }
                seeds.add((Tensor) cts.get(i));
            }
            return t.gradients(outs, seeds);
        };
        return new VjpResult(Differentiation.release(t.output, t.createGraph), vjpFn, t.aux);
    }

    // ---- jvp and Jacobians ---------------------------------------------------------------------------------------

    /** {@code torch.func.jvp(fn, (primal,), (tangent,))}. */
    public static JvpResult jvp(Function<Tensor, Tensor> fn, Tensor primal, Tensor tangent) {
        return jvp(a -> fn.apply((Tensor) a[0]), new Object[] {primal}, new Object[] {tangent});
    }

    /**
     * {@code torch.func.jvp(fn, primals, tangents)}: primals and tangents must match in structure, shapes and dtypes.
     */
    public static JvpResult jvp(Function<Object[], Object> fn, Object[] primals, Object[] tangents) {
        return jvp(fn, primals, tangents, false);
    }

    /** {@code torch.func.jvp(fn, primals, tangents, has_aux=hasAux)}. */
    public static JvpResult jvp(Function<Object[], Object> fn, Object[] primals, Object[] tangents, boolean hasAux) {
        if (primals.length != tangents.length) {
            throw new TorchException(
                    "jvp(f, primals, tangents): Expected primals and tangents to have the same python structure. "
                            + "For example, if primals is a tuple of 3 tensors, tangents also must be. Got "
                            + "primals with structure of "
                            + primals.length + " elements and tangents with structure of " + tangents.length
                            + " elements");
        }
        List<Object> ps = PyTree.leaves(primals), ts = PyTree.leaves(tangents);
        if (ps.size() != ts.size())
            throw new TorchException(
                    "jvp(f, primals, tangents): Expected primals and tangents to have the same python structure.");
        for (int i = 0; i < ps.size(); i++) {
            if (!(ps.get(i) instanceof Tensor p) || !(ts.get(i) instanceof Tensor t)) {
                throw new TorchException(
                        "jvp(f, primals, tangents): Expected primals and tangents to be tuples of Tensors");
            }
            if (!Arrays.equals(p.impl().shapeRef(), t.impl().shapeRef())) {
                throw new TorchException(
                        "jvp(f, primals, tangents): Expected primals and tangents to have the same shape. Got "
                                + Arrays.toString(p.shape()) + " and " + Arrays.toString(t.shape()));
            }
        }
        return TANGENTS.jvp(fn, primals, tangents, hasAux);
    }

    /** {@code torch.func.jacrev(fn)} for a function of one tensor: shape {@code output.shape + input.shape}. */
    public static Function<Tensor, Tensor> jacrev(Function<Tensor, Tensor> fn) {
        Function<Object[], Object> j = jacrev(a -> fn.apply((Tensor) a[0]), GradOptions.defaults());
        return x -> (Tensor) j.apply(new Object[] {x});
    }

    /**
     * {@code torch.func.jacrev(fn, argnums, has_aux, chunk_size)}: the Jacobian by a vmap over vjp of the basis of the
     * outputs. One tensor output gives one Jacobian per argnum (an array for tuple argnums); several outputs give an
     * array with one entry per output. With {@code hasAux}: {@code [jacobian, aux]}.
     */
    public static Function<Object[], Object> jacrev(Function<Object[], Object> fn, GradOptions options) {
        return args -> {
            Differentiation.checkArgnums(options.argnums(), args.length, "jacrev");
            int[] nums = Differentiation.wrapArgnums(options.argnums(), args.length);
            Differentiation.Traced t = Differentiation.trace(fn, args, nums, options.hasAux(), "jacrev");
            List<Tensor> outs = tensorLeaves(t.output, "jacrev");
            List<Object> perOutput = new ArrayList<>();
            for (int k = 0; k < outs.size(); k++) {
                Tensor o = outs.get(k);
                int n = Math.toIntExact(o.numel());
                Tensor basis = Jacobians.basis(o);
                final int which = k;
                Function<Object[], Object> column = a -> {
                    List<Tensor> seeds = new ArrayList<>();
                    for (int i = 0; i < outs.size(); i++) {
                        seeds.add(
                                i == which
                                        ? ((Tensor) a[0]).reshape(outs.get(i).shape())
                                        : org.jtorch.Torch.zerosLike(outs.get(i)));
                    }
                    return t.gradients(outs, seeds);
                };
                Tensor[] cols = n == 0
                        ? Jacobians.emptyColumns(t.inputs)
                        : (Tensor[]) vmap(column, VmapOptions.defaults().chunkSize(options.chunkSize()))
                                .apply(new Object[] {basis});
                Tensor[] jac = new Tensor[cols.length];
                for (int i = 0; i < cols.length; i++)
                    jac[i] = Jacobians.fromRows(
                            cols[i], o.shape(), t.inputs.get(i).shape());
                perOutput.add(regroup(args, nums, jac, options.tuple()));
            }
            Object jac = PyTree.isContainer(t.output) ? perOutput.toArray() : perOutput.get(0);
            return options.hasAux() ? new Object[] {jac, t.aux} : jac;
        };
    }

    /** {@code torch.func.jacfwd(fn)} for a function of one tensor. */
    public static Function<Tensor, Tensor> jacfwd(Function<Tensor, Tensor> fn) {
        Function<Object[], Object> j = jacfwd(a -> fn.apply((Tensor) a[0]), GradOptions.defaults(), Randomness.ERROR);
        return x -> (Tensor) j.apply(new Object[] {x});
    }

    /**
     * {@code torch.func.jacfwd(fn, argnums, has_aux, randomness)}: the Jacobian by a vmap over jvp of the basis of the
     * inputs.
     */
    public static Function<Object[], Object> jacfwd(
            Function<Object[], Object> fn, GradOptions options, Randomness randomness) {
        return args -> Jacobians.jacfwd(fn, options, randomness, args);
    }

    /** {@code torch.func.hessian(fn)}: {@code jacfwd(jacrev(fn))}. */
    public static Function<Tensor, Tensor> hessian(Function<Tensor, Tensor> fn) {
        return jacfwd(jacrev(fn));
    }

    /** {@code torch.func.hessian(fn, argnums)}. */
    public static Function<Object[], Object> hessian(Function<Object[], Object> fn, GradOptions options) {
        return jacfwd(jacrev(fn, options), options, Randomness.ERROR);
    }

    static JvpResult tangents(Function<Object[], Object> fn, Object[] primals, Object[] tangents, boolean hasAux) {
        return TANGENTS.jvp(fn, primals, tangents, hasAux);
    }

    // ---- functional_call ----------------------------------------------------------------------------------------

    /**
     * {@code torch.func.functional_call(module, params_and_buffers, args)}: calls {@code module} with the given tensors
     * (by dotted name) in place of its parameters and buffers, restoring them afterwards, also when the call throws.
     */
    public static Tensor functionalCall(Module module, Map<String, Tensor> paramsAndBuffers, Tensor input) {
        try (AutoCloseable _ = module.substituteTensors(paramsAndBuffers)) {
            return module.call(input);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code functional_call} with several dicts (merged; a key given twice is an error, as in PyTorch). */
    public static Tensor functionalCall(Module module, List<Map<String, Tensor>> paramsAndBuffers, Tensor input) {
        Map<String, Tensor> merged = new java.util.LinkedHashMap<>();
        for (Map<String, Tensor> m : paramsAndBuffers) {
            for (var e : m.entrySet()) {
                if (merged.put(e.getKey(), e.getValue()) != null) {
                    throw new IllegalArgumentException("functional_call got multiple values for keys ['" + e.getKey()
                            + "'], which are used as parameters or buffers");
                }
            }
        }
        return functionalCall(module, merged, input);
    }

    // ---- helpers -----------------------------------------------------------------------------------------------

    /** Gradients of the leaves of the argnums' arguments, regrouped: one per argnum (their pytrees rebuilt). */
    private static Object regroup(Object[] args, int[] nums, Tensor[] flat, boolean tuple) {
        Object[] per = new Object[nums.length];
        int at = 0;
        for (int k = 0; k < nums.length; k++) {
            List<Object> leaves = PyTree.leaves(args[nums[k]]);
            List<Object> g = new ArrayList<>();
            for (int i = 0; i < leaves.size(); i++) g.add(flat[at++]);
            per[k] = PyTree.rebuild(args[nums[k]], g.iterator());
        }
        return tuple ? per : per[0];
    }

    private static List<Tensor> tensorLeaves(Object output, String api) {
        List<Tensor> outs = new ArrayList<>();
        for (Object o : PyTree.leaves(output)) {
            if (!(o instanceof Tensor t)) {
                throw new TorchException(
                        api + "(f, *primals): Expected f to be a function that has only Tensors as outputs, " + "got "
                                + Vmap.typeName(o));
            }
            outs.add(t);
        }
        return outs;
    }

    private static String nameOf(Object fn) {
        String s = fn.getClass().getSimpleName();
        return s.contains("$$Lambda") ? "<lambda>" : s;
    }
}
