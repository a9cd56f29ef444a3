"""The names of the tests, corrections and interval methods in the words the tables, legends
and notices print (one place, read by ``many`` and ``tables`` alike)."""

TEST_NAMES = {"randomisation": "paired sign-flip randomisation test",
              "t": "paired t-test", "bootstrap": "paired bootstrap test"}
CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini-Hochberg",
                    "none": "no correction"}
CI_NAMES = {"t": "t", "bca": "bootstrap BCa", "percentile": "bootstrap percentile"}
