package org.jtorch.kernels.cpu;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;

/**
 * The C library's double-precision {@code log}, {@code log1p}, {@code sin}, {@code cos}, {@code tan} and {@code exp}
 * through FFM, for the random distributions whose float64 samples must be bit for bit PyTorch's: ATen computes them
 * with the platform's libm (glibc on Linux), whose results differ from {@link Math}'s in the last bit for some
 * arguments, so a Java formula cannot reproduce them. Where no libm can be loaded (not Linux), {@link StrictMath} is
 * used instead. Every function here accepts any double, so no argument needs checking before the call.
 */
@SuppressWarnings("restricted") // binding the C library is this class's job; needs --enable-native-access
public final class Libm {
    private Libm() {}

    private static final SymbolLookup LIBM = load();

    /** {@code log(x)}. */
    public static final DoubleUnaryOperator LOG = function("log", StrictMath::log);
    /** {@code log1p(x)}. */
    public static final DoubleUnaryOperator LOG1P = function("log1p", StrictMath::log1p);
    /** {@code sin(x)}. */
    public static final DoubleUnaryOperator SIN = function("sin", StrictMath::sin);
    /** {@code cos(x)}. */
    public static final DoubleUnaryOperator COS = function("cos", StrictMath::cos);
    /** {@code tan(x)}. */
    public static final DoubleUnaryOperator TAN = function("tan", StrictMath::tan);
    /** {@code exp(x)}. */
    public static final DoubleUnaryOperator EXP = function("exp", StrictMath::exp);

    /** Whether the functions are the C library's (else {@link StrictMath}'s). */
    public static boolean isNative() {
        return LIBM != null;
    }

    private static SymbolLookup load() {
        for (String name : new String[] {"libm.so.6", "libm.so"}) {
            try {
                return SymbolLookup.libraryLookup(name, Arena.global());
            } catch (IllegalArgumentException | UnsupportedOperationException absent) {
                // try the next name; without any, the Java fallback is used
            }
        }
        return null;
    }

    private static DoubleUnaryOperator function(String name, DoubleUnaryOperator fallback) {
        Optional<java.lang.foreign.MemorySegment> symbol = LIBM == null ? Optional.empty() : LIBM.find(name);
        if (symbol.isEmpty()) return fallback;
        MethodHandle handle = Linker.nativeLinker()
                .downcallHandle(
                        symbol.get(),
                        FunctionDescriptor.of(ValueLayout.JAVA_DOUBLE, ValueLayout.JAVA_DOUBLE),
                        Linker.Option.critical(false));
        return x -> {
            try {
                return (double) handle.invokeExact(x);
            } catch (Throwable impossible) { // a pure C function of one double neither throws nor fails
                throw new AssertionError(impossible);
            }
        };
    }
}
