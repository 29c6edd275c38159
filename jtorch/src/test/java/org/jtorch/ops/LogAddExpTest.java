package org.jtorch.ops;

import java.util.List;
import java.util.stream.Stream;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code logaddexp} and {@code logaddexp2} against PyTorch 2.13 ({@code make_golden_logaddexp.py}): values at ordinary,
 * huge, infinite and NaN arguments, broadcasting, promotion, float16, complex, and the gradients of
 * {@code sum(Re(conj(W) * out))}; the dtypes ATen's CPU kernel refuses raise its error. The generic sweeps (meta,
 * gradcheck, forward AD, vmap) cover both ops through the pointwise family.
 */
class LogAddExpTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("logaddexp.json").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        Golden.check(c, List.of(), false, () -> run(c));
    }

    private static Object run(Golden.Case c) {
        Tensor a = c.tensorArg(0), b = c.tensorArg(1);
        if (c.expectsError()) return call(c.op(), a, b);
        if (c.argCount() == 2) return List.of(call(c.op(), a, b));
        boolean differentiable = a.isFloatingPoint() || a.isComplex();
        a.requiresGrad(differentiable);
        b.requiresGrad(differentiable);
        Tensor out = call(c.op(), a, b);
        Tensor w = c.tensorArg(2);
        Tensor loss = out.isComplex()
                ? Torch.real(w.conj().mul(out)).sum()
                : w.mul(out).sum();
        loss.backward();
        return List.of(out.detach(), a.grad(), b.grad());
    }

    private static Tensor call(String op, Tensor a, Tensor b) {
        return switch (op) {
            case "logaddexp" -> a.logaddexp(b);
            case "logaddexp2" -> Torch.logaddexp2(a, b);
            default -> throw new IllegalArgumentException(op);
        };
    }
}
