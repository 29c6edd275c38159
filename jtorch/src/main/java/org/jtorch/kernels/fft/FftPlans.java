package org.jtorch.kernels.fft;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The plans most recently used, by length: twiddles and chirps cost as much as a transform or more, and a program
 * usually transforms a few lengths many times (PyTorch's CPU FFT keeps a plan cache too). Plans are immutable, so
 * threads share them; the cache itself is locked only to look up and insert.
 */
final class FftPlans {
    private FftPlans() {}

    private static final int CAPACITY = 32;

    private static final Map<Integer, ComplexFft> COMPLEX = lru();
    private static final Map<Integer, RealFft> REAL = lru();

    private static <T> Map<Integer, T> lru() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, T> eldest) {
                return size() > CAPACITY;
            }
        };
    }

    static ComplexFft complex(int n) {
        return cached(COMPLEX, n, ComplexFft::of);
    }

    static RealFft real(int n) {
        return cached(REAL, n, RealFft::new);
    }

    private static <T> T cached(Map<Integer, T> cache, int n, IntFunction<T> make) {
        synchronized (cache) {
            T plan = cache.get(n);
            if (plan != null) return plan;
        }
        T plan = make.apply(n); // outside the lock: a large plan takes milliseconds
        synchronized (cache) {
            cache.putIfAbsent(n, plan);
            return cache.get(n);
        }
    }
}
