package org.jtorch.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Tests for {@link LowPrecision}. Expected values come from the format definitions (hand-derived spot values, the
 * spec's conversion table) and from {@link Grid}, a deliberately naive reference that rounds by searching a sorted
 * table of every representable value; nothing is checked against the implementation's own output.
 */
class LowPrecisionTest {

    /** Sweeps visit every 257th float bit pattern; 257 is odd, so every low-bit pattern occurs. */
    private static final long SWEEP_STEP = 0x101;

    // ================================================================================================
    // Independent reference

    /**
     * A binary format described only by its parameters. Values are computed with the textbook formula in double (exact:
     * every value here has at most 11 significant bits and a modest exponent), and a float is rounded by binary search
     * for its neighbours lo &le; |x| &lt; hi followed by an exact comparison with their midpoint; ties pick the
     * neighbour whose code is even. The grid is extended by one code past the largest finite one, so overflow is
     * decided after rounding, as IEEE prescribes.
     */
    private static final class Grid {
        private final int mantissaBits;
        private final int bias;
        private final int maxFiniteCode;
        /** values[c] for every magnitude code up to maxFiniteCode + 1. */
        private final double[] values;

        Grid(int mantissaBits, int bias, int maxFiniteCode) {
            this.mantissaBits = mantissaBits;
            this.bias = bias;
            this.maxFiniteCode = maxFiniteCode;
            this.values = new double[maxFiniteCode + 2];
            for (int code = 0; code < values.length; code++) {
                values[code] = formula(code);
            }
        }

        private double formula(int code) {
            int mantissa = code & ((1 << mantissaBits) - 1);
            int exponentField = code >>> mantissaBits;
            if (exponentField == 0) {
                return mantissa * Math.pow(2, 1 - bias - mantissaBits);
            }
            return (1 + mantissa / Math.pow(2, mantissaBits)) * Math.pow(2, exponentField - bias);
        }

        double value(int code) {
            return values[code];
        }

        /**
         * The magnitude code nearest to |x| (finite x), ties to even; returns maxFiniteCode + 1 when |x| rounds past
         * the largest finite value.
         */
        int round(float x) {
            double a = Math.abs((double) x);
            int top = maxFiniteCode + 1;
            if (a >= values[top]) {
                return top;
            }
            int lo = 0; // invariant: values[lo] <= a < values[hi]
            int hi = top;
            while (hi - lo > 1) {
                int mid = (lo + hi) >>> 1;
                if (values[mid] <= a) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            double midpoint = (values[lo] + values[hi]) / 2; // exact in double
            if (a < midpoint) {
                return lo;
            }
            if (a > midpoint) {
                return hi;
            }
            return (lo & 1) == 0 ? lo : hi;
        }
    }

    private static final Grid HALF = new Grid(10, 15, 0x7BFF);
    private static final Grid BF16 = new Grid(7, 127, 0x7F7F);
    private static final Grid E4M3FN = new Grid(3, 7, 0x7E);
    private static final Grid E5M2 = new Grid(2, 15, 0x7B);
    private static final Grid E4M3FNUZ = new Grid(3, 8, 0x7F);
    private static final Grid E5M2FNUZ = new Grid(2, 16, 0x7F);

    /** An 8-bit encoder, unboxed. */
    @FunctionalInterface
    private interface FloatToByte {
        byte apply(float x);
    }

    /** An 8-bit decoder, unboxed. */
    @FunctionalInterface
    private interface ByteToFloat {
        float apply(byte code);
    }

    private static float f(int bits) {
        return Float.intBitsToFloat(bits);
    }

    private static int b(float x) {
        return Float.floatToRawIntBits(x);
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v).toUpperCase();
    }

    /** Runs {@code check} on every float of the sweep, failing with the first mismatching input. */
    private static void sweep(IntPredicate check) {
        for (long bits = 0; bits <= 0xFFFF_FFFFL; bits += SWEEP_STEP) {
            if (!check.test((int) bits)) {
                fail("mismatch for float bits " + hex(bits) + " = " + f((int) bits));
            }
        }
    }

    // ================================================================================================
    // float16

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "1.0, 0x3C00",
        "-2.0, 0xC000",
        "65504, 0x7BFF", // largest finite
        "65519.996, 0x7BFF", // just below the overflow midpoint
        "65520, 0x7C00", // midpoint 65504..65536: tie to the even code, which is inf
        "5.9604645E-8, 0x0001", // 2^-24, the smallest subnormal
        "2.9802322E-8, 0x0000", // 2^-25: tie between 0 and 2^-24, goes to even 0
        "4.4703484E-8, 0x0001", // 1.5 * 2^-25 rounds up to 2^-24
        "6.1035156E-5, 0x0400", // 2^-14, smallest normal
        "1.00048828125, 0x3C00", // 1 + 2^-11: tie, 0x3C00 is even
        "1.00146484375, 0x3C02", // 1 + 3 * 2^-11: tie, rounds up to even 0x3C02
        "1.0009765625, 0x3C01", // 1 + 2^-10 exact
        "0.1, 0x2E66",
    })
    void halfSpotValues(float x, String expected) {
        int code = Integer.decode(expected);
        assertEquals(code, LowPrecision.floatToHalf(x) & 0xFFFF, () -> "floatToHalf(" + x + ")");
    }

    @Test
    void halfSpecials() {
        assertEquals(0x7C00, LowPrecision.floatToHalf(Float.POSITIVE_INFINITY) & 0xFFFF);
        assertEquals(0xFC00, LowPrecision.floatToHalf(Float.NEGATIVE_INFINITY) & 0xFFFF);
        assertEquals(0x8000, LowPrecision.floatToHalf(-0.0f) & 0xFFFF);
        assertEquals(0x7E00, LowPrecision.floatToHalf(Float.NaN) & 0xFFFF);
        for (int nanBits : new int[] {0x7FC0_0000, 0xFFC0_0000, 0x7F80_0001, 0x7FFF_FFFF, 0xFFA0_0000}) {
            int h = LowPrecision.floatToHalf(f(nanBits)) & 0xFFFF;
            assertEquals(0x7C00, h & 0x7C00, () -> "NaN must keep exponent 31: " + hex(h));
            assertTrue((h & 0x03FF) != 0, () -> "NaN must have a mantissa: " + hex(h));
            assertEquals(nanBits >>> 31, h >>> 15, "NaN sign kept");
        }
        assertEquals(1.0f, LowPrecision.halfToFloat((short) 0x3C00));
        assertEquals(65504f, LowPrecision.halfToFloat((short) 0x7BFF));
        assertEquals(0x1p-24f, LowPrecision.halfToFloat((short) 0x0001));
        assertEquals(Float.NEGATIVE_INFINITY, LowPrecision.halfToFloat((short) 0xFC00));
        assertTrue(Float.isNaN(LowPrecision.halfToFloat((short) 0x7E00)));
    }

    @Test
    void halfDecodeMatchesFormulaForAllCodes() {
        for (int code = 0; code < 0x10000; code++) {
            int magnitude = code & 0x7FFF;
            float decoded = LowPrecision.halfToFloat((short) code);
            if (magnitude > 0x7C00) {
                assertTrue(Float.isNaN(decoded), hex(code));
                continue;
            }
            double expected = magnitude == 0x7C00 ? Double.POSITIVE_INFINITY : HALF.value(magnitude);
            if ((code & 0x8000) != 0) {
                expected = -expected;
            }
            assertEquals(b((float) expected), b(decoded), hex(code));
        }
    }

    @Test
    void halfEncodeMatchesReferenceOnSweep() {
        sweep(bits -> {
            float x = f(bits);
            int h = LowPrecision.floatToHalf(x) & 0xFFFF;
            if (Float.isNaN(x)) {
                return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0;
            }
            int magnitude = Math.min(HALF.round(x), 0x7C00); // overflow goes to inf
            return h == ((bits >>> 16 & 0x8000) | magnitude);
        });
    }

    // ================================================================================================
    // bfloat16

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "0x3F800000, 0x3F80", // 1.0
        "0x3F808000, 0x3F80", // tie, kept part 0x3F80 even: stays
        "0x3F818000, 0x3F82", // tie, kept part 0x3F81 odd: rounds up to even
        "0x3F808001, 0x3F81", // just above the tie
        "0x3F817FFF, 0x3F81", // just below the tie
        "0xBF818000, 0xBF82", // negative tie
        "0x7F7F0000, 0x7F7F", // largest finite bfloat16
        "0x7F7F7FFF, 0x7F7F", // below the overflow midpoint
        "0x7F7F8000, 0x7F80", // overflow midpoint: tie to even = inf
        "0x7F7FFFFF, 0x7F80", // Float.MAX_VALUE rounds to inf
        "0x7F800000, 0x7F80", // +inf
        "0xFF800000, 0xFF80", // -inf
        "0x00000000, 0x0000",
        "0x80000000, 0x8000", // -0
        "0x00008000, 0x0000", // float subnormal tie at the bottom: to even 0
        "0x00018000, 0x0002", // subnormal tie, odd: up
        "0x7FC00000, 0x7FC0", // NaN
        "0xFFC00000, 0x7FC0", // negative NaN: c10 returns 0x7FC0 regardless of sign
        "0x7F800001, 0x7FC0", // signalling NaN whose top half would read as inf
        "0xFFFFFFFF, 0x7FC0", // NaN whose rounding would carry out of 32 bits
    })
    void bfloat16SpotValues(String floatBits, String expected) {
        float x = f(Integer.parseUnsignedInt(floatBits.substring(2), 16));
        assertEquals(Integer.decode(expected), LowPrecision.floatToBFloat16(x) & 0xFFFF, floatBits);
    }

    @Test
    void bfloat16Decode() {
        assertEquals(1.0f, LowPrecision.bfloat16ToFloat((short) 0x3F80));
        assertEquals(-2.0f, LowPrecision.bfloat16ToFloat((short) 0xC000));
        assertEquals(0x1.FEp127f, LowPrecision.bfloat16ToFloat((short) 0x7F7F));
        assertEquals(Float.POSITIVE_INFINITY, LowPrecision.bfloat16ToFloat((short) 0x7F80));
        assertEquals(0x7FC0_0000, b(LowPrecision.bfloat16ToFloat((short) 0x7FC0)));
        for (int code = 0; code < 0x10000; code++) {
            int magnitude = code & 0x7FFF;
            if (magnitude >= 0x7F80) {
                continue; // inf/NaN covered above
            }
            double expected = BF16.value(magnitude);
            if ((code & 0x8000) != 0) {
                expected = -expected;
            }
            assertEquals(b((float) expected), b(LowPrecision.bfloat16ToFloat((short) code)), hex(code));
        }
    }

    @Test
    void bfloat16EncodeMatchesReferenceOnSweep() {
        sweep(bits -> {
            float x = f(bits);
            int r = LowPrecision.floatToBFloat16(x) & 0xFFFF;
            if (Float.isNaN(x)) {
                return r == 0x7FC0;
            }
            int magnitude = Math.min(BF16.round(x), 0x7F80);
            return r == ((bits >>> 16 & 0x8000) | magnitude);
        });
    }

    @Test
    void bfloat16EveryTieAndItsNeighbours() {
        // For every finite bfloat16 code c, the float exactly halfway to c + 1 and the floats on either side.
        for (int code = 0; code < 0x7F80; code++) {
            for (int low : new int[] {0x7FFF, 0x8000, 0x8001}) {
                float x = f((code << 16) | low);
                int expected = Math.min(BF16.round(x), 0x7F80);
                assertEquals(expected, LowPrecision.floatToBFloat16(x) & 0xFFFF, hex((code << 16) | low));
            }
        }
    }

    // ================================================================================================
    // float8_e4m3fn and float8_e5m2: the spec table (nn-optim.md section 5.1)

    @ParameterizedTest(name = "{0}: e4m3fn {1}, e5m2 {3}")
    @CsvSource({
        // x,             e4m3fn, value,      e5m2, value
        "1.1,             0x39,   1.125,      0x3C, 1.0",
        "1.0625,          0x38,   1.0,        0x3C, 1.0",
        "0.3,             0x2A,   0.3125,     0x35, 0.3125",
        "3.3,             0x45,   3.25,       0x43, 3.5",
        "100,             0x6C,   96,         0x56, 96",
        "240,             0x77,   240,        0x5C, 256",
        "450,             0x7E,   448,        0x5F, 448",
        "465,             0x7F,   NaN,        0x5F, 448",
        "480,             0x7F,   NaN,        0x60, 512",
        "0.0009765625,    0x00,   0,          0x14, 0.0009765625",
        "0.0029296875,    0x02,   0.00390625, 0x1A, 0.0029296875",
        "60000,           0x7F,   NaN,        0x7B, 57344",
        "61440,           0x7F,   NaN,        0x7C, Infinity",
        "-2.5,            0xC2,   -2.5,       0xC1, -2.5",
    })
    void specConversionTable(float x, String e4m3fn, float e4m3fnValue, String e5m2, float e5m2Value) {
        int c4 = LowPrecision.floatToE4m3fn(x) & 0xFF;
        assertEquals((int) Integer.decode(e4m3fn), c4, "e4m3fn code");
        assertEquals(e4m3fnValue, LowPrecision.e4m3fnToFloat((byte) c4), "e4m3fn value"); // NaN == NaN here
        int c5 = LowPrecision.floatToE5m2(x) & 0xFF;
        assertEquals((int) Integer.decode(e5m2), c5, "e5m2 code");
        assertEquals(e5m2Value, LowPrecision.e5m2ToFloat((byte) c5), "e5m2 value");
    }

    // ================================================================================================
    // float8_e4m3fn

    @Test
    void e4m3fnDecodeFollowsDefinition() {
        // exponent e != 0: (-1)^S (1 + M/8) 2^(e-7); e == 0: (-1)^S (M/8) 2^-6; S.1111.111 is NaN.
        assertEquals(0x1p-9f, LowPrecision.e4m3fnToFloat((byte) 0x01)); // smallest subnormal
        assertEquals(0.875f * 0x1p-6f, LowPrecision.e4m3fnToFloat((byte) 0x07)); // largest subnormal
        assertEquals(0x1p-6f, LowPrecision.e4m3fnToFloat((byte) 0x08)); // smallest normal
        assertEquals(1.0f, LowPrecision.e4m3fnToFloat((byte) 0x38));
        assertEquals(448f, LowPrecision.e4m3fnToFloat((byte) 0x7E));
        assertEquals(-448f, LowPrecision.e4m3fnToFloat((byte) 0xFE));
        assertEquals(b(-0.0f), b(LowPrecision.e4m3fnToFloat((byte) 0x80)));
        // c10's decoder yields these exact NaN bits.
        assertEquals(0x7FF0_0000, b(LowPrecision.e4m3fnToFloat((byte) 0x7F)));
        assertEquals(0xFFF0_0000, b(LowPrecision.e4m3fnToFloat((byte) 0xFF)));
        for (int code = 0; code < 256; code++) {
            int magnitude = code & 0x7F;
            float decoded = LowPrecision.e4m3fnToFloat((byte) code);
            if (magnitude == 0x7F) {
                assertTrue(Float.isNaN(decoded));
                continue;
            }
            double expected = E4M3FN.value(magnitude) * ((code & 0x80) != 0 ? -1 : 1);
            assertEquals(b((float) expected), b(decoded), hex(code));
        }
    }

    @Test
    void e4m3fnRoundTripsAndIsMonotonic() {
        for (int code = 0; code < 256; code++) {
            if ((code & 0x7F) == 0x7F) {
                continue;
            }
            float v = LowPrecision.e4m3fnToFloat((byte) code);
            assertEquals(code, LowPrecision.floatToE4m3fn(v) & 0xFF, hex(code));
        }
        for (int code = 0; code < 0x7E; code++) {
            assertTrue(
                    LowPrecision.e4m3fnToFloat((byte) code) < LowPrecision.e4m3fnToFloat((byte) (code + 1)), hex(code));
        }
    }

    @Test
    void e4m3fnNanAndSaturationRules() {
        assertEquals(0x7E, LowPrecision.floatToE4m3fn(448f) & 0xFF);
        assertEquals(0x7E, LowPrecision.floatToE4m3fn(464f) & 0xFF, "464 is a tie to even 448");
        assertEquals(0x7F, LowPrecision.floatToE4m3fn(Math.nextUp(464f)) & 0xFF, "above 464 rounds to NaN");
        assertEquals(0x7F, LowPrecision.floatToE4m3fn(Math.nextDown(480f)) & 0xFF);
        assertEquals(0x7F, LowPrecision.floatToE4m3fn(1e30f) & 0xFF, "not saturating");
        assertEquals(0x7F, LowPrecision.floatToE4m3fn(Float.MAX_VALUE) & 0xFF);
        assertEquals(0x7F, LowPrecision.floatToE4m3fn(Float.POSITIVE_INFINITY) & 0xFF, "inf -> NaN");
        assertEquals(0xFF, LowPrecision.floatToE4m3fn(Float.NEGATIVE_INFINITY) & 0xFF, "-inf -> -NaN");
        assertEquals(0x7F, LowPrecision.floatToE4m3fn(Float.NaN) & 0xFF);
        assertEquals(0xFF, LowPrecision.floatToE4m3fn(f(0xFFC0_0000)) & 0xFF, "NaN keeps its sign");
        assertEquals(0xFE, LowPrecision.floatToE4m3fn(-464f) & 0xFF);
        assertEquals(0xFF, LowPrecision.floatToE4m3fn(-465f) & 0xFF);
        // Bottom of the range: smallest subnormal 2^-9; 2^-10 is the tie with zero.
        assertEquals(0x00, LowPrecision.floatToE4m3fn(0x1p-10f) & 0xFF);
        assertEquals(0x01, LowPrecision.floatToE4m3fn(Math.nextUp(0x1p-10f)) & 0xFF);
        assertEquals(0x80, LowPrecision.floatToE4m3fn(-0x1p-10f) & 0xFF, "negative zero exists in e4m3fn");
        assertEquals(0x80, LowPrecision.floatToE4m3fn(-Float.MIN_VALUE) & 0xFF);
        // 2^-6 - 2^-10 is halfway between the largest subnormal 7/8 * 2^-6 (odd) and 2^-6 (even).
        assertEquals(0x08, LowPrecision.floatToE4m3fn(0x1p-6f - 0x1p-10f) & 0xFF);
    }

    @Test
    void e4m3fnEncodeMatchesReferenceOnSweep() {
        sweep(bits -> {
            float x = f(bits);
            int r = LowPrecision.floatToE4m3fn(x) & 0xFF;
            int sign = bits >>> 24 & 0x80;
            if (Float.isNaN(x) || Float.isInfinite(x)) {
                return r == (sign | 0x7F);
            }
            // Rounding to 0x7F (the grid's "480") or beyond is NaN, which is code 0x7F too.
            return r == (sign | Math.min(E4M3FN.round(x), 0x7F));
        });
    }

    // ================================================================================================
    // float8_e5m2

    @Test
    void e5m2DecodeFollowsDefinition() {
        // (1 + M/4) 2^(e-15), subnormal (M/4) 2^-14, exponent 31: inf (M = 0) or NaN.
        assertEquals(0x1p-16f, LowPrecision.e5m2ToFloat((byte) 0x01));
        assertEquals(0x1p-14f, LowPrecision.e5m2ToFloat((byte) 0x04));
        assertEquals(1.0f, LowPrecision.e5m2ToFloat((byte) 0x3C));
        assertEquals(57344f, LowPrecision.e5m2ToFloat((byte) 0x7B));
        assertEquals(Float.POSITIVE_INFINITY, LowPrecision.e5m2ToFloat((byte) 0x7C));
        assertEquals(Float.NEGATIVE_INFINITY, LowPrecision.e5m2ToFloat((byte) 0xFC));
        // Quietened float16 NaNs, as c10 decodes them.
        assertEquals(0x7FE0_0000, b(LowPrecision.e5m2ToFloat((byte) 0x7D)));
        assertEquals(0x7FC0_0000, b(LowPrecision.e5m2ToFloat((byte) 0x7E)));
        assertEquals(0x7FE0_0000, b(LowPrecision.e5m2ToFloat((byte) 0x7F)));
        assertEquals(0xFFC0_0000, b(LowPrecision.e5m2ToFloat((byte) 0xFE)));
        for (int code = 0; code < 256; code++) {
            int magnitude = code & 0x7F;
            if (magnitude >= 0x7C) {
                continue;
            }
            double expected = E5M2.value(magnitude) * ((code & 0x80) != 0 ? -1 : 1);
            assertEquals(b((float) expected), b(LowPrecision.e5m2ToFloat((byte) code)), hex(code));
            // e5m2 is the top byte of a float16: an independent check of the same table.
            assertEquals(b(Float.float16ToFloat((short) (code << 8))), b(LowPrecision.e5m2ToFloat((byte) code)));
        }
    }

    @Test
    void e5m2RoundTripsAndIsMonotonic() {
        for (int code = 0; code < 256; code++) {
            if ((code & 0x7F) > 0x7C) {
                continue; // NaN
            }
            float v = LowPrecision.e5m2ToFloat((byte) code);
            assertEquals(code, LowPrecision.floatToE5m2(v) & 0xFF, hex(code));
        }
        for (int code = 0; code < 0x7C; code++) {
            assertTrue(LowPrecision.e5m2ToFloat((byte) code) < LowPrecision.e5m2ToFloat((byte) (code + 1)), hex(code));
        }
    }

    @Test
    void e5m2InfAndNanRules() {
        assertEquals(0x7B, LowPrecision.floatToE5m2(Math.nextDown(61440f)) & 0xFF);
        assertEquals(0x7C, LowPrecision.floatToE5m2(61440f) & 0xFF);
        assertEquals(0xFC, LowPrecision.floatToE5m2(-61440f) & 0xFF);
        assertEquals(0x7C, LowPrecision.floatToE5m2(65536f) & 0xFF);
        assertEquals(0x7C, LowPrecision.floatToE5m2(Float.MAX_VALUE) & 0xFF);
        assertEquals(0x7C, LowPrecision.floatToE5m2(Float.POSITIVE_INFINITY) & 0xFF);
        assertEquals(0xFC, LowPrecision.floatToE5m2(Float.NEGATIVE_INFINITY) & 0xFF);
        assertEquals(0x7F, LowPrecision.floatToE5m2(Float.NaN) & 0xFF);
        assertEquals(0xFF, LowPrecision.floatToE5m2(f(0xFFC0_0000)) & 0xFF);
        assertEquals(0x7F, LowPrecision.floatToE5m2(f(0x7F80_0001)) & 0xFF, "signalling NaN is NaN, not inf");
        assertEquals(0x00, LowPrecision.floatToE5m2(0x1p-17f) & 0xFF, "tie with zero goes to zero");
        assertEquals(0x02, LowPrecision.floatToE5m2(0x1p-16f * 1.5f) & 0xFF, "subnormal tie goes to even");
        assertEquals(0x80, LowPrecision.floatToE5m2(-0.0f) & 0xFF);
    }

    @Test
    void e5m2EncodeMatchesReferenceOnSweep() {
        sweep(bits -> {
            float x = f(bits);
            int r = LowPrecision.floatToE5m2(x) & 0xFF;
            int sign = bits >>> 24 & 0x80;
            if (Float.isNaN(x)) {
                return r == (sign | 0x7F);
            }
            return r == (sign | Math.min(E5M2.round(x), 0x7C)); // the code after 0x7B is inf
        });
    }

    // ================================================================================================
    // fnuz formats

    @Test
    void e4m3fnuzSpotValues() {
        // Bias 8: 1.0 = 2^0 -> exponent field 8, 0.1000.000 = 0x40. Largest 0.1111.111 = 1.875 * 2^7 = 240.
        // Smallest normal 0.0001.000 = 2^-7, smallest subnormal 0x01 = 1/8 * 2^-7 = 2^-10.
        assertEquals(0x40, LowPrecision.floatToE4m3fnuz(1.0f) & 0xFF);
        assertEquals(0xC0, LowPrecision.floatToE4m3fnuz(-1.0f) & 0xFF);
        assertEquals(1.0f, LowPrecision.e4m3fnuzToFloat((byte) 0x40));
        assertEquals(240f, LowPrecision.e4m3fnuzToFloat((byte) 0x7F));
        assertEquals(-240f, LowPrecision.e4m3fnuzToFloat((byte) 0xFF));
        assertEquals(0x1p-7f, LowPrecision.e4m3fnuzToFloat((byte) 0x08));
        assertEquals(0x1p-10f, LowPrecision.e4m3fnuzToFloat((byte) 0x01));
        // 0.3 lies in [0.25, 0.5) = 2^-2 -> exponent field 6, step 2^-5: 0.3 / 0.25 = 1.2 -> 1.25 (M = 2),
        // 0.0110.010 = 0x32.
        assertEquals(0x32, LowPrecision.floatToE4m3fnuz(0.3f) & 0xFF);
        // 248 is halfway between 240 (M = 7, odd) and 256 (not representable): the tie goes up -> NaN.
        assertEquals(0x7F, LowPrecision.floatToE4m3fnuz(Math.nextDown(248f)) & 0xFF);
        assertEquals(0x80, LowPrecision.floatToE4m3fnuz(248f) & 0xFF);
        assertEquals(0x80, LowPrecision.floatToE4m3fnuz(-248f) & 0xFF);
        assertEquals(0x80, LowPrecision.floatToE4m3fnuz(Float.POSITIVE_INFINITY) & 0xFF);
        assertEquals(0x80, LowPrecision.floatToE4m3fnuz(Float.NEGATIVE_INFINITY) & 0xFF);
        assertEquals(0x80, LowPrecision.floatToE4m3fnuz(Float.NaN) & 0xFF);
        // No negative zero: -0, and negatives that round to zero (2^-11 is the tie with zero), give 0x00.
        assertEquals(0x00, LowPrecision.floatToE4m3fnuz(-0.0f) & 0xFF);
        assertEquals(0x00, LowPrecision.floatToE4m3fnuz(-0x1p-11f) & 0xFF);
        assertEquals(0x81, LowPrecision.floatToE4m3fnuz(Math.nextDown(-0x1p-11f)) & 0xFF);
        assertEquals(0x7F80_0001, b(LowPrecision.e4m3fnuzToFloat((byte) 0x80)), "c10's NaN bits");
    }

    @Test
    void e5m2fnuzSpotValues() {
        // Bias 16: 1.0 -> exponent field 16, 0.10000.00 = 0x40. Largest 0.11111.11 = 1.75 * 2^15 = 57344.
        // Smallest subnormal 0x01 = 1/4 * 2^-15 = 2^-17.
        assertEquals(0x40, LowPrecision.floatToE5m2fnuz(1.0f) & 0xFF);
        assertEquals(1.0f, LowPrecision.e5m2fnuzToFloat((byte) 0x40));
        assertEquals(57344f, LowPrecision.e5m2fnuzToFloat((byte) 0x7F));
        assertEquals(0x1p-17f, LowPrecision.e5m2fnuzToFloat((byte) 0x01));
        assertEquals(0x1p-15f, LowPrecision.e5m2fnuzToFloat((byte) 0x04));
        // -2.5 = -1.25 * 2^1 -> exponent field 17, M = 1: 1.10001.01 = 0xC5.
        assertEquals(0xC5, LowPrecision.floatToE5m2fnuz(-2.5f) & 0xFF);
        // 61440 is halfway between 57344 (M = 3, odd) and 65536: the tie goes up -> NaN.
        assertEquals(0x7F, LowPrecision.floatToE5m2fnuz(Math.nextDown(61440f)) & 0xFF);
        assertEquals(0x80, LowPrecision.floatToE5m2fnuz(61440f) & 0xFF);
        assertEquals(0x80, LowPrecision.floatToE5m2fnuz(Float.NEGATIVE_INFINITY) & 0xFF);
        assertEquals(0x80, LowPrecision.floatToE5m2fnuz(f(0xFFC0_0000)) & 0xFF);
        assertEquals(0x00, LowPrecision.floatToE5m2fnuz(-0.0f) & 0xFF);
        assertEquals(0x00, LowPrecision.floatToE5m2fnuz(-0x1p-18f) & 0xFF);
        assertEquals(0x7F80_0001, b(LowPrecision.e5m2fnuzToFloat((byte) 0x80)), "c10's NaN bits");
    }

    @Test
    void fnuzRoundTripAndDecodeDefinition() {
        checkFnuz(E4M3FNUZ, LowPrecision::e4m3fnuzToFloat, LowPrecision::floatToE4m3fnuz);
        checkFnuz(E5M2FNUZ, LowPrecision::e5m2fnuzToFloat, LowPrecision::floatToE5m2fnuz);
    }

    private static void checkFnuz(Grid grid, ByteToFloat decode, FloatToByte encode) {
        assertTrue(Float.isNaN(decode.apply((byte) 0x80)));
        for (int code = 0; code < 256; code++) {
            if (code == 0x80) {
                continue;
            }
            float v = decode.apply((byte) code);
            double expected = grid.value(code & 0x7F) * ((code & 0x80) != 0 ? -1 : 1);
            assertEquals(b((float) expected), b(v), hex(code));
            assertEquals(code, encode.apply(v) & 0xFF, hex(code));
        }
    }

    @Test
    void fnuzEncodeMatchesReferenceOnSweep() {
        checkFnuzSweep(E4M3FNUZ, LowPrecision::floatToE4m3fnuz);
        checkFnuzSweep(E5M2FNUZ, LowPrecision::floatToE5m2fnuz);
    }

    private static void checkFnuzSweep(Grid grid, FloatToByte encode) {
        sweep(bits -> {
            float x = f(bits);
            int r = encode.apply(x) & 0xFF;
            if (Float.isNaN(x) || Float.isInfinite(x)) {
                return r == 0x80;
            }
            int magnitude = grid.round(x);
            if (magnitude > 0x7F) {
                return r == 0x80;
            }
            if (magnitude == 0) {
                return r == 0;
            }
            return r == ((bits >>> 24 & 0x80) | magnitude);
        });
    }

    // ================================================================================================
    // float8_e8m0fnu

    @Test
    void e8m0fnuDecode() {
        // value = 2^(code - 127); code 0 is 2^-127 (no zero); 0xFF is NaN.
        assertEquals(1.0f, LowPrecision.e8m0fnuToFloat((byte) 0x7F));
        assertEquals(2.0f, LowPrecision.e8m0fnuToFloat((byte) 0x80));
        assertEquals(0.5f, LowPrecision.e8m0fnuToFloat((byte) 0x7E));
        assertEquals(0x1p127f, LowPrecision.e8m0fnuToFloat((byte) 0xFE));
        assertEquals(0x0040_0000, b(LowPrecision.e8m0fnuToFloat((byte) 0x00)), "2^-127 as a float subnormal");
        assertEquals(0x7F80_0001, b(LowPrecision.e8m0fnuToFloat((byte) 0xFF)), "c10's NaN bits");
        for (int code = 0; code < 255; code++) {
            assertEquals(b((float) Math.pow(2, code - 127)), b(LowPrecision.e8m0fnuToFloat((byte) code)), hex(code));
        }
    }

    @Test
    void e8m0fnuRoundTrip() {
        for (int code = 0; code < 255; code++) {
            assertEquals(code, LowPrecision.floatToE8m0fnu(LowPrecision.e8m0fnuToFloat((byte) code)) & 0xFF, hex(code));
        }
        assertTrue(Float.isNaN(LowPrecision.e8m0fnuToFloat((byte) 0xFF)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        // c10 rounds |x| = m * 2^e (1 <= m < 2) to 2^e when m < 1.5, else to 2^(e+1); code = e + 127.
        "1.0, 0x7F",
        "2.0, 0x80",
        "0.5, 0x7E",
        "1.4999999, 0x7F", // m < 1.5: down
        "1.5, 0x80", // the tie 1.5 goes up
        "2.9, 0x80", // 1.45 * 2: down to 2, not a ceiling
        "3.0, 0x81", // 1.5 * 2: up to 4
        "-4.0, 0x81", // sign ignored
        "-3.0, 0x81",
        "0.0, 0x00", // no zero: smallest value 2^-127
        "-0.0, 0x00",
        "1.7014118E38, 0xFE", // 2^127, the largest
        "2.5521178E38, 0xFF", // 1.5 * 2^127 rounds past the largest: NaN
        "Infinity, 0xFF",
        "-Infinity, 0xFF",
        "NaN, 0xFF",
    })
    void e8m0fnuSpotValues(float x, String expected) {
        assertEquals((int) Integer.decode(expected), LowPrecision.floatToE8m0fnu(x) & 0xFF, () -> "x = " + x);
    }

    @Test
    void e8m0fnuSubnormalInputs() {
        // Float subnormals: x = F * 2^-149. Code 0 is 2^-127 = 0x400000 * 2^-149, code 1 is 2^-126.
        assertEquals(0x00, LowPrecision.floatToE8m0fnu(Float.MIN_VALUE) & 0xFF);
        assertEquals(0x00, LowPrecision.floatToE8m0fnu(f(0x003F_FFFF)) & 0xFF);
        assertEquals(0x00, LowPrecision.floatToE8m0fnu(f(0x0040_0000)) & 0xFF, "exactly 2^-127");
        // c10 quirk: anything strictly between 2^-127 and 2^-126 goes to 2^-126, even when nearer 2^-127.
        assertEquals(0x01, LowPrecision.floatToE8m0fnu(f(0x0040_0001)) & 0xFF);
        assertEquals(0x01, LowPrecision.floatToE8m0fnu(f(0x007F_FFFF)) & 0xFF);
        assertEquals(0x01, LowPrecision.floatToE8m0fnu(Float.MIN_NORMAL) & 0xFF);
    }

    @Test
    void e8m0fnuEncodeMatchesValueRuleOnSweep() {
        // The rule restated on values: for normal |x| = m * 2^e, code = e + 127 + (m >= 1.5 ? 1 : 0),
        // NaN past 254; for subnormal |x|, code 0 up to 2^-127 and 1 above.
        IntUnaryOperator reference = bits -> {
            float x = f(bits);
            if (Float.isNaN(x) || Float.isInfinite(x)) {
                return 0xFF;
            }
            double a = Math.abs((double) x);
            if (a < Float.MIN_NORMAL) {
                return a <= 0x1p-127 ? 0 : 1;
            }
            int e = Math.getExponent(x);
            double m = Math.scalb(a, -e);
            return Math.min(e + 127 + (m >= 1.5 ? 1 : 0), 0xFF);
        };
        sweep(bits -> (LowPrecision.floatToE8m0fnu(f(bits)) & 0xFF) == reference.applyAsInt(bits));
    }
}
