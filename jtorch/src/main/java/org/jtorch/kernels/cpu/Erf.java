package org.jtorch.kernels.cpu;

/**
 * The error function and its relatives in double precision (the JDK has none).
 *
 * <p>{@code erf}/{@code erfc} use W. J. Cody's rational Chebyshev approximations (Math. Comp. 1969), accurate to about
 * 1e-16 relative; {@code erfinv} uses Giles' polynomial start ("Approximating the erfinv function", 2010) refined by
 * two Newton steps on {@code erf}.
 */
public final class Erf {
    private Erf() {}

    private static final double[] A = {
        3.16112374387056560e00,
        1.13864154151050156e02,
        3.77485237685302021e02,
        3.20937758913846947e03,
        1.85777706184603153e-1
    };
    private static final double[] B = {
        2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03, 2.84423683343917062e03
    };
    private static final double[] C = {
        5.64188496988670089e-1,
        8.88314979438837594e00,
        6.61191906371416295e01,
        2.98635138197400131e02,
        8.81952221241769090e02,
        1.71204761263407058e03,
        2.05107837782607147e03,
        1.23033935479799725e03,
        2.15311535474403846e-8
    };
    private static final double[] D = {
        1.57449261107098347e01,
        1.17693950891312499e02,
        5.37181101862009858e02,
        1.62138957456669019e03,
        3.29079923573345963e03,
        4.36261909014324716e03,
        3.43936767414372164e03,
        1.23033935480374942e03
    };
    private static final double[] P = {
        3.05326634961232344e-1,
        3.60344899949804439e-1,
        1.25781726111229246e-1,
        1.60837851487422766e-2,
        6.58749161529837803e-4,
        1.63153871373020978e-2
    };
    private static final double[] Q = {
        2.56852019228982242e00,
        1.87295284992346725e00,
        5.27905102951428412e-1,
        6.05183413124413191e-2,
        2.33520497626869185e-3
    };
    private static final double SQRPI = 5.6418958354775628695e-1; // 1/sqrt(pi)
    private static final double THRESH = 0.46875;

    public static double erf(double x) {
        if (Double.isNaN(x)) return x;
        double y = Math.abs(x);
        if (y <= THRESH) return x * small(y);
        double r = 1 - erfcLarge(y);
        return x < 0 ? -r : r;
    }

    public static double erfc(double x) {
        if (Double.isNaN(x)) return x;
        double y = Math.abs(x);
        if (y <= THRESH) return 1 - x * small(y);
        double r = erfcLarge(y);
        return x < 0 ? 2 - r : r;
    }

    /** erf(y)/y for |y| ≤ 0.46875. */
    private static double small(double y) {
        double ysq = y > 1.11e-16 ? y * y : 0;
        double xnum = A[4] * ysq, xden = ysq;
        for (int i = 0; i < 3; i++) {
            xnum = (xnum + A[i]) * ysq;
            xden = (xden + B[i]) * ysq;
        }
        return (xnum + A[3]) / (xden + B[3]);
    }

    /** erfc(y) for y > 0.46875. */
    private static double erfcLarge(double y) {
        double result;
        if (y <= 4) {
            double xnum = C[8] * y, xden = y;
            for (int i = 0; i < 7; i++) {
                xnum = (xnum + C[i]) * y;
                xden = (xden + D[i]) * y;
            }
            result = (xnum + C[7]) / (xden + D[7]);
        } else {
            if (y >= 26.6) return 0;
            double ysq = 1 / (y * y);
            double xnum = P[5] * ysq, xden = ysq;
            for (int i = 0; i < 4; i++) {
                xnum = (xnum + P[i]) * ysq;
                xden = (xden + Q[i]) * ysq;
            }
            result = ysq * (xnum + P[4]) / (xden + Q[4]);
            result = (SQRPI - result) / y;
        }
        // exp(-y*y) split so that the rounding of y*y does not cost accuracy.
        double ysq = Math.floor(y * 16) / 16;
        double del = (y - ysq) * (y + ysq);
        return Math.exp(-ysq * ysq) * Math.exp(-del) * result;
    }

    public static double erfinv(double y) {
        if (Double.isNaN(y) || y < -1 || y > 1) return Double.NaN;
        if (y == 1) return Double.POSITIVE_INFINITY;
        if (y == -1) return Double.NEGATIVE_INFINITY;
        double w = -Math.log((1 - y) * (1 + y)), x;
        if (w < 6.25) {
            w -= 3.125;
            x = -3.6444120640178196996e-21;
            double[] c = {
                -1.685059138182016589e-19,
                1.2858480715256400167e-18,
                1.115787767802518096e-17,
                -1.333171662854620906e-16,
                2.0972767875968561637e-17,
                6.6376381343583238325e-15,
                -4.0545662729752068639e-14,
                -8.1519341976054721522e-14,
                2.6335093153082322977e-12,
                -1.2975133253453532498e-11,
                -5.4154120542946279317e-11,
                1.051212273321532285e-09,
                -4.1126339803469836976e-09,
                -2.9070369957882005086e-08,
                4.2347877827932403518e-07,
                -1.3654692000834678645e-06,
                -1.3882523362786468719e-05,
                0.0001867342080340571352,
                -0.00074070253416626697512,
                -0.0060336708714301490533,
                0.24015818242558961693,
                1.6536545626831027356
            };
            for (double ci : c) x = ci + x * w;
        } else if (w < 16) {
            w = Math.sqrt(w) - 3.25;
            x = 2.2137376921775787049e-09;
            double[] c = {
                9.0756561938885390979e-08,
                -2.7517406297064545428e-07,
                1.8239629214389227755e-08,
                1.5027403968909827627e-06,
                -4.013867526981545969e-06,
                2.9234449089955446044e-06,
                1.2475304481671778723e-05,
                -4.7318229009055733981e-05,
                6.8284851459573175448e-05,
                2.4031110387097893999e-05,
                -0.0003550375203628474796,
                0.00095328937973738049703,
                -0.0016882755560235047313,
                0.0024914420961078508066,
                -0.0037512085075692412107,
                0.005370914553590063617,
                1.0052589676941592334,
                3.0838856104922207635
            };
            for (double ci : c) x = ci + x * w;
        } else {
            w = Math.sqrt(w) - 5;
            x = -2.7109920616438573243e-11;
            double[] c = {
                -2.5556418169965252055e-10,
                1.5076572693500548083e-09,
                -3.7894654401267369937e-09,
                7.6157012080783393804e-09,
                -1.4960026627149240478e-08,
                2.9147953450901080826e-08,
                -6.7711997758452339498e-08,
                2.2900482228026654717e-07,
                -9.9298272942317002539e-07,
                4.5260625972231537039e-06,
                -1.9681778105531670567e-05,
                7.5995277030017761139e-05,
                -0.00021503011930044477347,
                -0.00013871931833623122026,
                1.0103004648645343977,
                4.8499064014085844221
            };
            for (double ci : c) x = ci + x * w;
        }
        x *= y;
        for (int i = 0; i < 2; i++) { // Newton on erf(x) - y; erf' = 2/sqrt(pi) exp(-x²)
            double err = erf(x) - y;
            x -= err / (2 * SQRPI * Math.exp(-x * x));
        }
        return x;
    }
}
