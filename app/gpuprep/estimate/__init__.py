"""The napkin-math engine: a safe expression language over quantities with units.

Nothing here imports sympy at module level: `bank check` evaluates every estimation
formula through plain-float quantities, and only the worked-solution renderer loads sympy.
"""
