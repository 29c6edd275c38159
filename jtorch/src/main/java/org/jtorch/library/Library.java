package org.jtorch.library;

import java.util.function.Function;

/**
 * {@code torch.library}: operators defined by the program, from a schema string and a Java kernel, that run through the
 * dispatcher as built-in ones do (see {@link CustomOp}), and {@link #opcheck} to test one.
 *
 * <pre>{@code
 * CustomOp mysin = Library.customOp("mylib::mysin", "(Tensor x) -> Tensor", args -> ...)
 *         .registerFake(args -> Torch.emptyLike((Tensor) args[0]))
 *         .registerAutograd((ctx, g) -> ..., (ctx, inputs, output) -> ctx.saveForBackward((Tensor) inputs[0]));
 * Tensor y = (Tensor) mysin.call(x);
 * }</pre>
 */
public final class Library {
    private Library() {}

    /**
     * {@code torch.library.custom_op(name, mutates_args=..., schema=...)}: defines {@code qualifiedName}
     * ({@code namespace::name}, outside {@code aten}) with {@code schema} ({@code (Tensor x) -> Tensor}; an argument
     * the op writes is marked {@code Tensor(a!)}) and {@code kernel}, which takes the arguments in schema order and
     * returns the outputs (a Tensor, a Tensor[] for several returns, null for none). A name defined twice is an error.
     */
    public static CustomOp customOp(String qualifiedName, String schema, Function<Object[], Object> kernel) {
        return new CustomOp(qualifiedName, schema, kernel);
    }

    /**
     * {@code torch.library.opcheck}: runs {@code op} on {@code args} and checks, in this order, that its behaviour
     * matches its schema (return count and types, no write to an argument the schema does not mark written, a bumped
     * version counter for one it does), that its fake implementation gives the real outputs' shapes and dtypes, that
     * its autograd registration is right (gradcheck in float64 when registered; a clear error when not), and that it
     * under vmap equals a loop over the examples. Throws an {@link OpCheckError} naming the first failed check. The
     * gradcheck casts the floating inputs to float64, so the kernel must compute in its inputs' dtype. An op that
     * writes an argument is checked for the first two only, as the others would differentiate and batch a mutation.
     */
    public static void opcheck(CustomOp op, Object... args) {
        new OpCheck(op, args).run();
    }
}
