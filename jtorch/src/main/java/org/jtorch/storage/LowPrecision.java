package org.jtorch.storage;

/**
 * Bit-exact conversions between {@code float} and the reduced-precision floating-point formats that PyTorch stores:
 * float16, bfloat16 and the five 8-bit float formats. Every result matches the CPU conversions of PyTorch's c10 types
 * ({@code c10::Half}, {@code c10::BFloat16}, {@code c10::Float8_*}) bit for bit, edge cases included (for NaN payloads
 * see below).
 *
 * <table>
 *   <caption>Formats (S = sign, E = exponent, M = mantissa bits)</caption>
 *   <tr><th>format</th><th>layout</th><th>bias</th><th>max finite</th><th>inf</th><th>NaN</th>
 *       <th>float &rarr; format</th></tr>
 *   <tr><td>float16</td><td>S E5 M10</td><td>15</td><td>65504</td><td>yes</td><td>E = 31, M &ne; 0</td>
 *       <td>RNE, overflow &rarr; &plusmn;inf</td></tr>
 *   <tr><td>bfloat16</td><td>S E8 M7</td><td>127</td><td>&asymp; 3.39e38</td><td>yes</td><td>E = 255, M &ne; 0</td>
 *       <td>RNE, overflow &rarr; &plusmn;inf, every NaN &rarr; {@code 0x7FC0}</td></tr>
 *   <tr><td>e4m3fn</td><td>S E4 M3</td><td>7</td><td>448</td><td>no</td><td>{@code 0x7F}, {@code 0xFF}</td>
 *       <td>RNE, not saturating: |x| &gt; 464, inf, NaN &rarr; NaN (sign kept)</td></tr>
 *   <tr><td>e5m2</td><td>S E5 M2</td><td>15</td><td>57344</td><td>yes</td><td>E = 31, M &ne; 0</td>
 *       <td>RNE, |x| &ge; 61440 &rarr; &plusmn;inf, NaN &rarr; {@code 0x7F} (sign kept)</td></tr>
 *   <tr><td>e4m3fnuz</td><td>S E4 M3</td><td>8</td><td>240</td><td>no</td><td>{@code 0x80} only</td>
 *       <td>RNE, |x| &ge; 248, inf, NaN &rarr; {@code 0x80}; no &minus;0</td></tr>
 *   <tr><td>e5m2fnuz</td><td>S E5 M2</td><td>16</td><td>57344</td><td>no</td><td>{@code 0x80} only</td>
 *       <td>RNE, |x| &ge; 61440, inf, NaN &rarr; {@code 0x80}; no &minus;0</td></tr>
 *   <tr><td>e8m0fnu</td><td>E8</td><td>127</td><td>2<sup>127</sup></td><td>no</td><td>{@code 0xFF}</td>
 *       <td>nearest power of two, ties up, sign ignored; see {@link #floatToE8m0fnu}</td></tr>
 * </table>
 *
 * <p>All formats but e8m0fnu have subnormals: exponent field 0 means {@code (M / 2^m) * 2^(1 - bias)} for {@code m}
 * mantissa bits. "fn" means finite (no infinities), "uz" unsigned zero: the code that would be negative zero
 * ({@code 0x80}) is the single NaN instead, so a result that rounds to zero is always {@code +0}. e8m0fnu is a bare
 * exponent, {@code 2^(E - 127)}, used as a block scale; it has no sign and no zero (code 0 is 2<sup>-127</sup>).
 *
 * <p>RNE = round to nearest, ties to even, on the target grid including its subnormals, exactly as if the float value
 * were rounded once. Overflow is decided after rounding, which is why e4m3fn accepts 464 (a tie that rounds to the even
 * 448) but not the next float above it.
 *
 * <p><b>double inputs.</b> There are deliberately no {@code double} overloads. PyTorch converts a double to any of
 * these formats by first rounding it to float (the c10 constructors take a float), so callers write
 * {@code floatToBFloat16((float) d)}, which reproduces PyTorch's double rounding exactly.
 *
 * <p><b>NaN payloads.</b> Decoding returns the NaN bit patterns c10 produces on x86-64 CPUs (they differ by format; see
 * each method). float16 conversions are the JDK's {@link Float#floatToFloat16}/{@link Float#float16ToFloat}, which are
 * exact and RNE; for NaN they keep the sign and (as the hardware F16C instructions c10 uses on x86 do) the top payload
 * bits.
 *
 * <p>Decoding an 8-bit format is a lookup in a precomputed 256-entry table; encoding is integer arithmetic on the
 * float's bits. All methods are pure and thread-safe.
 */
public final class LowPrecision {

    private LowPrecision() {}

    /** Raw bits of a float's magnitude at which its exponent field is all ones (inf or NaN). */
    private static final int FLOAT_INF_BITS = 0x7F80_0000;

    /** c10::BFloat16's one NaN: every NaN input, whatever its sign or payload, becomes this. */
    private static final short BF16_NAN = 0x7FC0;

    /** The single NaN code of both fnuz formats (the slot negative zero would occupy). */
    private static final byte FNUZ_NAN = (byte) 0x80;

    /**
     * The float c10 returns when decoding the fnuz NaN and the e8m0fnu NaN: a signalling-NaN bit pattern
     * ({@code fp32_from_bits(0x7F800001)}), reproduced as is.
     */
    private static final float C10_BITCAST_NAN = Float.intBitsToFloat(0x7F80_0001);

    private static final float[] E4M3FN_VALUES = e4m3fnTable();
    private static final float[] E5M2_VALUES = e5m2Table();
    private static final float[] E4M3FNUZ_VALUES = fnuzTable(3, 8);
    private static final float[] E5M2FNUZ_VALUES = fnuzTable(2, 16);
    private static final float[] E8M0FNU_VALUES = e8m0fnuTable();

    // ------------------------------------------------------------------------------------------------
    // float16

    /** Rounds a float to IEEE binary16 (RNE; overflow to &plusmn;inf; NaN stays NaN with its sign). */
    public static short floatToHalf(float value) {
        return Float.floatToFloat16(value);
    }

    /** The exact float value of an IEEE binary16 bit pattern. */
    public static float halfToFloat(short bits) {
        return Float.float16ToFloat(bits);
    }

    // ------------------------------------------------------------------------------------------------
    // bfloat16

    /**
     * Rounds a float to bfloat16, i.e. to its top 16 bits, ties to even. Overflow gives &plusmn;inf (as for any RNE
     * rounding, {@code Float.MAX_VALUE} rounds up to inf). Every NaN, of either sign and any payload, becomes
     * {@code 0x7FC0}, as in c10's {@code round_to_nearest_even}.
     */
    public static short floatToBFloat16(float value) {
        if (Float.isNaN(value)) {
            return BF16_NAN;
        }
        int bits = Float.floatToRawIntBits(value);
        // Adding 0x7FFF plus the lowest kept bit carries into the kept part exactly when the dropped
        // 16 bits are above half, or exactly half with an odd kept part. The carry can run on into the
        // exponent, which is what makes the largest values round to infinity.
        int lowestKeptBit = (bits >>> 16) & 1;
        return (short) ((bits + 0x7FFF + lowestKeptBit) >>> 16);
    }

    /** The exact float value of a bfloat16 bit pattern (the bits become the float's top half). */
    public static float bfloat16ToFloat(short bits) {
        return Float.intBitsToFloat(bits << 16);
    }

    // ------------------------------------------------------------------------------------------------
    // float8_e4m3fn

    /**
     * Rounds a float to float8_e4m3fn (RNE, not saturating). Inf, NaN and every value whose rounding lands past 448
     * (that is, |x| &gt; 464) become NaN {@code 0x7F} with the input's sign ({@code 0xFF} when negative). Negative
     * values that round to zero give {@code 0x80} (negative zero).
     */
    public static byte floatToE4m3fn(float value) {
        int bits = Float.floatToRawIntBits(value);
        int sign = (bits >>> 24) & 0x80;
        int magnitude = bits & 0x7FFF_FFFF;
        if (magnitude >= FLOAT_INF_BITS) {
            return (byte) (sign | 0x7F);
        }
        // Codes above 0x7E are S.1111.111 (NaN) or past the format entirely: both mean NaN.
        return (byte) (sign | Math.min(roundMagnitude(magnitude, 3, 7), 0x7F));
    }

    /**
     * The float value of a float8_e4m3fn code. The NaN codes decode to the float bits c10 gives them,
     * {@code 0x7FF00000} and {@code 0xFFF00000}.
     */
    public static float e4m3fnToFloat(byte bits) {
        return E4M3FN_VALUES[bits & 0xFF];
    }

    // ------------------------------------------------------------------------------------------------
    // float8_e5m2

    /**
     * Rounds a float to float8_e5m2 (RNE, IEEE-like). Values with |x| &ge; 61440 (61440 is a tie whose even neighbour
     * is the infinity code) and infinities give &plusmn;inf ({@code 0x7C}/{@code 0xFC}); NaN gives {@code 0x7F} with
     * the input's sign.
     */
    public static byte floatToE5m2(float value) {
        int bits = Float.floatToRawIntBits(value);
        int sign = (bits >>> 24) & 0x80;
        int magnitude = bits & 0x7FFF_FFFF;
        if (magnitude > FLOAT_INF_BITS) {
            return (byte) (sign | 0x7F);
        }
        // Infinity itself also lands here: its "rounded" code is far past 0x7C and clamps to it.
        return (byte) (sign | Math.min(roundMagnitude(magnitude, 2, 15), 0x7C));
    }

    /**
     * The float value of a float8_e5m2 code. e5m2 is the top byte of a float16, and its NaN codes decode as c10 decodes
     * that float16: a quiet NaN keeping sign and mantissa bits ({@code 0x7D} and {@code 0x7F} give {@code 0x7FE00000},
     * {@code 0x7E} gives {@code 0x7FC00000}).
     */
    public static float e5m2ToFloat(byte bits) {
        return E5M2_VALUES[bits & 0xFF];
    }

    // ------------------------------------------------------------------------------------------------
    // float8_e4m3fnuz and float8_e5m2fnuz

    /**
     * Rounds a float to float8_e4m3fnuz (bias 8, max 240, RNE). Inf, NaN and every value whose rounding lands past 240
     * (that is, |x| &ge; 248) give the NaN code {@code 0x80}; results that round to zero are {@code +0} whatever the
     * input's sign.
     */
    public static byte floatToE4m3fnuz(float value) {
        return floatToFnuz(value, 3, 8);
    }

    /** The float value of a float8_e4m3fnuz code; the NaN code decodes to the bits {@code 0x7F800001}. */
    public static float e4m3fnuzToFloat(byte bits) {
        return E4M3FNUZ_VALUES[bits & 0xFF];
    }

    /**
     * Rounds a float to float8_e5m2fnuz (bias 16, max 57344, RNE). Inf, NaN and every value whose rounding lands past
     * 57344 (that is, |x| &ge; 61440) give the NaN code {@code 0x80}; results that round to zero are {@code +0}
     * whatever the input's sign.
     */
    public static byte floatToE5m2fnuz(float value) {
        return floatToFnuz(value, 2, 16);
    }

    /** The float value of a float8_e5m2fnuz code; the NaN code decodes to the bits {@code 0x7F800001}. */
    public static float e5m2fnuzToFloat(byte bits) {
        return E5M2FNUZ_VALUES[bits & 0xFF];
    }

    private static byte floatToFnuz(float value, int mantissaBits, int bias) {
        int bits = Float.floatToRawIntBits(value);
        int magnitude = bits & 0x7FFF_FFFF;
        if (magnitude >= FLOAT_INF_BITS) {
            return FNUZ_NAN;
        }
        int code = roundMagnitude(magnitude, mantissaBits, bias);
        if (code > 0x7F) {
            // Rounded past the largest finite magnitude: there is no infinity to go to.
            return FNUZ_NAN;
        }
        if (code == 0) {
            // Keeping the sign here would produce 0x80, which is this format's NaN.
            return 0;
        }
        return (byte) (((bits >>> 24) & 0x80) | code);
    }

    // ------------------------------------------------------------------------------------------------
    // float8_e8m0fnu

    /**
     * Converts a float to float8_e8m0fnu, reproducing {@code c10::detail::fp8e8m0fnu_from_fp32_value}.
     *
     * <p>The sign is ignored (the format has none): the result is the float's biased exponent, plus one when the
     * float's mantissa is at least half (x &ge; 1.5 &middot; 2<sup>e</sup>, so the tie 1.5 &middot; 2<sup>e</sup> goes
     * up). This is round-to-nearest of the value between the two neighbouring powers of two, not a ceiling: 2.9 gives 2
     * (0x80) but 3 gives 4 (0x81). Inf and NaN give NaN {@code 0xFF}, as does anything rounding past 2<sup>127</sup> (x
     * &ge; 1.5 &middot; 2<sup>127</sup>). Zero and every |x| &le; 2<sup>-127</sup> give code 0 (2<sup>-127</sup>, the
     * smallest value; there is no zero). c10 quirk kept for bit-exactness: float subnormals strictly between
     * 2<sup>-127</sup> and 2<sup>-126</sup> all give code 1 (2<sup>-126</sup>), even those nearer 2<sup>-127</sup>,
     * because c10 treats the top stored mantissa bit as a guard bit there too.
     *
     * <p>Quantisation recipes that want a ceiling or floor of log2 (e.g. MX scale computation) must compute the
     * exponent themselves; a plain cast, in PyTorch as here, rounds as described.
     */
    public static byte floatToE8m0fnu(float value) {
        int bits = Float.floatToRawIntBits(value);
        int exponent = (bits >>> 23) & 0xFF;
        if (exponent == 0xFF) {
            return (byte) 0xFF;
        }
        int mantissa = bits & 0x7F_FFFF;
        // Normal floats: round up from the midpoint 1.5 * 2^e inclusive. Subnormal floats (exponent 0) lack
        // the implicit bit, so the exact midpoint 0x400000 * 2^-149 = 2^-127 is code 0 itself and stays.
        boolean roundUp = exponent != 0 ? mantissa >= 0x40_0000 : mantissa > 0x40_0000;
        // exponent 254 rounding up gives 255: NaN, as in c10.
        return (byte) (roundUp ? exponent + 1 : exponent);
    }

    /**
     * The float value of a float8_e8m0fnu code: 2<sup>code - 127</sup>, with code 0 being 2<sup>-127</sup> (a float
     * subnormal) and {@code 0xFF} NaN, decoded to the bits {@code 0x7F800001} as c10 does.
     */
    public static float e8m0fnuToFloat(byte bits) {
        return E8M0FNU_VALUES[bits & 0xFF];
    }

    // ------------------------------------------------------------------------------------------------
    // shared rounding and decoding

    /**
     * Rounds a finite, non-negative float (given as its raw bits) to nearest-even on the grid of a binary format with
     * {@code mantissaBits} stored mantissa bits, exponent bias {@code bias}, subnormals, and no upper limit. Returns
     * the magnitude code {@code exponentField << mantissaBits | mantissa}; a code past the format's largest finite one
     * means overflow, which each caller resolves by its own rule.
     */
    private static int roundMagnitude(int magnitudeBits, int mantissaBits, int bias) {
        int floatExponentField = magnitudeBits >>> 23;
        int significand = magnitudeBits & 0x7F_FFFF;
        if (floatExponentField != 0) {
            significand |= 0x80_0000;
        } else {
            floatExponentField = 1; // float subnormals share the scale of exponent field 1
        }
        // value = significand * 2^(exponent - 23)
        int exponent = floatExponentField - 127;
        // Below the format's smallest normal exponent the grid spacing stops shrinking (subnormals), so
        // the value is expressed against that exponent and more low bits are dropped.
        int targetExponent = Math.max(exponent, 1 - bias);
        int shift = 23 - mantissaBits + (targetExponent - exponent);
        if (shift > 24) {
            // significand < 2^24 <= half a unit of the kept part: rounds to zero.
            return 0;
        }
        int kept = significand >>> shift;
        int dropped = significand & ((1 << shift) - 1);
        int half = 1 << (shift - 1);
        if (dropped > half || (dropped == half && (kept & 1) != 0)) {
            kept++;
        }
        // kept includes the implicit bit for normals (2^m <= kept <= 2^(m+1)) and not for subnormals
        // (kept <= 2^m); adding it to (exponentField - 1) << m yields the code in both cases, and a
        // carry out of the mantissa lands in the exponent field as it should.
        return ((targetExponent + bias - 1) << mantissaBits) + kept;
    }

    /** The value of an 8-bit code read as sign, exponent, mantissa with subnormals and no specials. */
    private static float plainValue(int code, int mantissaBits, int bias) {
        int mantissa = code & ((1 << mantissaBits) - 1);
        int exponentField = (code & 0x7F) >>> mantissaBits;
        float magnitude = exponentField == 0
                ? Math.scalb((float) mantissa, 1 - bias - mantissaBits)
                : Math.scalb((float) ((1 << mantissaBits) | mantissa), exponentField - bias - mantissaBits);
        return (code & 0x80) != 0 ? -magnitude : magnitude;
    }

    private static float[] e4m3fnTable() {
        float[] table = new float[256];
        for (int code = 0; code < 256; code++) {
            table[code] = plainValue(code, 3, 7);
        }
        // S.1111.111 is NaN, not 480; c10's branch-free decoder turns it into these bits.
        table[0x7F] = Float.intBitsToFloat(0x7FF0_0000);
        table[0xFF] = Float.intBitsToFloat(0xFFF0_0000);
        return table;
    }

    private static float[] e5m2Table() {
        float[] table = new float[256];
        for (int code = 0; code < 256; code++) {
            int sign = (code & 0x80) << 24;
            int mantissa = code & 0x03;
            if ((code & 0x7C) != 0x7C) {
                table[code] = plainValue(code, 2, 15);
            } else if (mantissa == 0) {
                table[code] = Float.intBitsToFloat(sign | FLOAT_INF_BITS);
            } else {
                // Widened float16 NaN, quietened (bit 22 set) as c10's float16 decoding does.
                table[code] = Float.intBitsToFloat(sign | 0x7FC0_0000 | (mantissa << 21));
            }
        }
        return table;
    }

    private static float[] fnuzTable(int mantissaBits, int bias) {
        float[] table = new float[256];
        for (int code = 0; code < 256; code++) {
            table[code] = plainValue(code, mantissaBits, bias);
        }
        table[0x80] = C10_BITCAST_NAN;
        return table;
    }

    private static float[] e8m0fnuTable() {
        float[] table = new float[256];
        for (int code = 0; code < 255; code++) {
            table[code] = Math.scalb(1.0f, code - 127);
        }
        table[0xFF] = C10_BITCAST_NAN;
        return table;
    }
}
