"""The exact engine: the Numba enumerator, the outcome table, the compiled walk (terms),
its sympy expressions and the batch engine."""
