"""Hypothesis runs the same examples on every machine and never fails on timing: CI shares two
cores with other work, and a test that is red only when the machine is busy tells nothing."""

from hypothesis import HealthCheck, settings

settings.register_profile("repeatable", deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("repeatable")
