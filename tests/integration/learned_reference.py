"""posenc's seeded normal generator re-derived in Python (docs/encodings/learned.md "Exact
algorithm"): row t of seed s draws from mt19937_64 seeded with splitmix64(splitmix64(s) ^ t),
two 53-bit uniforms per Box-Muller pair. Shared by the tests that recompute a learned table or
extrapolate's random queries and keys."""
import math

import numpy as np

M64 = (1 << 64) - 1


def splitmix64(x):
    z = (x + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class MT19937_64:
    """Matsumoto and Nishimura's 64-bit Mersenne Twister (mt19937-64.c), as C++'s mt19937_64."""

    def __init__(self, seed):
        self.mt = [seed & M64]
        for i in range(1, 312):
            prev = self.mt[-1]
            self.mt.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & M64)
        self.index = 312

    def __call__(self):
        if self.index >= 312:
            for i in range(312):
                x = (self.mt[i] & 0xFFFFFFFF80000000) | (self.mt[(i + 1) % 312] & 0x7FFFFFFF)
                xa = (x >> 1) ^ (0xB5026F5AA96619E9 if x & 1 else 0)
                self.mt[i] = self.mt[(i + 156) % 312] ^ xa
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        y ^= y >> 43
        return y & M64


def learned_row(seed, t, d, std=0.02):
    """Row t of `posenc generate learned --seed SEED --dim D --std STD`."""
    engine = MT19937_64(splitmix64(splitmix64(seed) ^ t))
    out = np.empty(d)
    for j in range(0, d, 2):
        a, b = engine(), engine()
        u1 = ((a >> 11) + 1) * 2.0 ** -53
        u2 = (b >> 11) * 2.0 ** -53
        r, theta = math.sqrt(-2.0 * math.log(u1)), 2.0 * math.pi * u2
        out[j] = std * r * math.cos(theta)
        if j + 1 < d:
            out[j + 1] = std * r * math.sin(theta)
    return out


def learned(n, d, seed=0, std=0.02):
    """The first n rows of that table."""
    return np.array([learned_row(seed, t, d, std) for t in range(n)]).reshape(n, d)
